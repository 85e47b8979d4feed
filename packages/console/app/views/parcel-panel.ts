import { ApiFailure, call } from '../api.js';
import { h, replace } from '../dom.js';
import { fieldCatalog, groupOf, humanise, unitOf, type CatalogField } from '../fields.js';
import { formatNumber, formatValue, opLabel } from '../format.js';
import type { MarketMap } from '../map/market-map.js';
import type { ViewContext } from '../view-context.js';
import { scoreText, statusPill, verdictBadge } from './badges.js';

interface Rule {
  field: string;
  op: string;
  value: unknown;
  weight?: number;
}

interface Spec {
  markets: string[];
  must: Rule[];
  preferred: Rule[];
}

/** Metres between two WGS84 points (haversine on the mean Earth radius). */
function metres(a: [number, number], b: [number, number]): number {
  const rad = Math.PI / 180;
  const dLat = (b[1] - a[1]) * rad;
  const dLon = (b[0] - a[0]) * rad;
  const s = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * rad) * Math.cos(b[1] * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.sqrt(s));
}

const ruleText = (catalog: Map<string, CatalogField>, rule: Rule) => `${humanise(rule.field)} ${opLabel(rule.op)} ${formatValue(rule.value, unitOf(catalog, rule.field))}`;

/**
 * A parcel's evidence: verdict and score, each rule's pass, fail or unknown with human labels and
 * units from the field catalog, the facts grouped as the catalog groups them with the layer
 * version each came from, the distance to the nearest substation drawn on the map, and what a
 * team does next (promote, the site report, diligence).
 */
export async function parcelPanel(context: ViewContext, map: MarketMap, buyBox: { name: string; spec: Spec }, parcelKey: string, onClose: () => void): Promise<HTMLElement> {
  const [catalog, evaluation] = await Promise.all([
    fieldCatalog(),
    call('GET', `/v2/parcels/${encodeURIComponent(parcelKey)}/evaluation`, undefined, { query: { buy_box: buyBox.name } }),
  ]);
  const result = evaluation.result;
  const panel = h('section', { class: 'parcel-panel', attrs: { 'aria-label': 'Parcel' } });
  const actions = h('div', { class: 'actions' });
  const status = h('p', { class: 'notice', attrs: { role: 'status' } });

  const mustRows = result.score_breakdown.must.map((evidence: any, i: number) =>
    h('tr', {}, h('td', { text: ruleText(catalog, buyBox.spec.must[i] ?? { field: evidence.field, op: '', value: '' }) }), h('td', { text: formatValue(evidence.value, unitOf(catalog, evidence.field)) }), h('td', {}, statusPill(evidence.status))),
  );
  const preferredRows = result.score_breakdown.preferred.map((evidence: any, i: number) => {
    const passed = evidence.contribution !== 0;
    const unknown = evidence.value === null;
    return h(
      'tr',
      {},
      h('td', { text: ruleText(catalog, buyBox.spec.preferred[i] ?? { field: evidence.field, op: '', value: '' }) }),
      h('td', { text: formatValue(evidence.value, unitOf(catalog, evidence.field)) }),
      h('td', {}, statusPill(unknown ? 'unknown' : passed ? 'pass' : 'fail'), h('span', { class: 'weight', text: ` +${formatNumber(evidence.contribution)} of ${formatNumber(Math.abs(evidence.weight))}` })),
    );
  });

  // Facts by the catalog's groups, each with the layer version it came from.
  const groups = new Map<string, HTMLElement[]>();
  for (const [field, value] of Object.entries(result.facts ?? {})) {
    // The APN and the address head the panel already.
    if (field === 'apn' || field === 'address') continue;
    const provenance = (result.provenance ?? {})[field] as { layer_version?: string; source?: string } | undefined;
    const version = provenance?.layer_version ? `layer ${provenance.layer_version.slice(0, 8)}` : provenance?.source ?? '';
    const rows = groups.get(groupOf(catalog, field)) ?? [];
    rows.push(h('tr', {}, h('th', { attrs: { scope: 'row' }, text: humanise(field) }), h('td', { text: formatValue(value, unitOf(catalog, field)) }), h('td', { class: 'provenance', text: version })));
    groups.set(groupOf(catalog, field), rows);
  }

  // The nearest substation drawn in view, measured, with the fact beside it.
  let distance: HTMLElement | null = null;
  if (result.lon != null && result.lat != null) {
    const from: [number, number] = [result.lon, result.lat];
    const nearest = map
      .substationsInView()
      .map((to) => ({ to, m: metres(from, to) }))
      .sort((a, b) => a.m - b.m)[0];
    map.drawDistance(nearest ? { from, to: nearest.to } : null);
    const fact = result.facts?.nearest_substation_distance_m;
    distance = h(
      'p',
      { class: 'distance' },
      nearest
        ? `Nearest substation drawn: ${formatValue(nearest.m, 'm')} (dashed line on the map).`
        : 'Turn on Substations and zoom out to draw the nearest one.',
      typeof fact === 'number' ? ` Screened distance: ${formatValue(fact, 'm')}.` : '',
    );
  }

  const diligence = h('div', { class: 'diligence' });
  async function showProperty(propertyId: string) {
    const page = await call('GET', `/v1/properties/${propertyId}`);
    const steps = (page.diligence?.steps ?? []) as { name: string; status: string }[];
    replace(
      diligence,
      h('h3', { text: 'Diligence' }),
      h('p', {}, 'Job: ', statusPill(page.diligence?.status ?? page.property.pipeline_item?.screen_status ?? 'queued')),
      steps.length > 0 ? h('ul', { class: 'steps' }, steps.map((step) => h('li', {}, `${humanise(step.name)}: `, statusPill(step.status)))) : null,
    );
    replace(
      actions,
      h('a', { class: 'button', attrs: { href: `/v1/properties/${propertyId}/pdf`, download: '' }, text: 'Site report (PDF)' }),
      h('a', { class: 'button quiet', attrs: { href: '#/board' }, text: 'Open the board' }),
    );
  }

  if (context.canWrite) {
    actions.append(
      h('button', {
        class: 'primary',
        attrs: { type: 'button' },
        text: 'Promote to the board',
        on: {
          click: async () => {
            status.textContent = 'Promoting…';
            try {
              const promoted = await call('POST', '/v2/pipeline', { parcel_key: result.parcel_key, buy_box: buyBox.name, query_hash: evaluation.query_hash });
              status.textContent = promoted.status === 'created' ? 'Promoted: the card is on the board and diligence is queued.' : 'Already on the board.';
              await showProperty(promoted.property_id);
            } catch (error) {
              status.textContent = error instanceof ApiFailure && error.code === 'must_failed' ? 'This parcel fails a must-have of the buy box: it cannot be promoted from the ranking.' : (error as Error).message;
            }
          },
        },
      }),
    );
  }
  // Already a property of the tenant: show its diligence and report straight away.
  const board = await call('GET', '/v1/pipeline').catch(() => ({ items: [] }));
  const card = (board.items as any[]).find((item) => item.property.parcel_key === result.parcel_key && item.property.market === evaluation.market);
  if (card) await showProperty(card.property_id);

  replace(
    panel,
    h('div', { class: 'panel-head' }, h('button', { class: 'quiet', attrs: { type: 'button' }, text: '← Back to the list', on: { click: onClose } })),
    h('h2', { text: result.apn ? `APN ${result.apn}` : result.parcel_key }),
    h('p', { class: 'parcel-line' }, verdictBadge(result.verdict), ' score ', scoreText(result.score), result.acres != null ? ` · ${formatNumber(result.acres)} acres` : '', result.address ? ` · ${result.address}` : ''),
    evaluation.eligible ? null : h('p', { class: 'warning', text: 'Not eligible: it fails a must-have of this buy box.' }),
    result.review_required ? h('p', { class: 'warning', text: `Review: unknown ${result.unknowns.map(humanise).join(', ')}.` }) : null,
    actions,
    status,
    diligence,
    distance,
    h('h3', { text: 'Must-haves' }),
    h('table', { class: 'evidence' }, h('thead', {}, h('tr', {}, h('th', { text: 'Rule' }), h('th', { text: 'Value' }), h('th', { text: 'Result' }))), h('tbody', {}, mustRows)),
    h('h3', { text: 'Preferences' }),
    h('table', { class: 'evidence' }, h('thead', {}, h('tr', {}, h('th', { text: 'Rule' }), h('th', { text: 'Value' }), h('th', { text: 'Result' }))), h('tbody', {}, preferredRows)),
    h('h3', { text: 'Facts' }),
    [...groups.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([group, rows]) => h('table', { class: 'facts' }, h('caption', { text: humanise(group) }), h('tbody', {}, rows))),
  );
  return panel;
}
