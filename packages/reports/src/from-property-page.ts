// The property page of D28 (GET /v1/properties/{id}) and the nearest grid features, read into
// the site report's model. The page is JSON composed by the pipeline service; anything missing
// or of an unexpected shape prints as "—" rather than failing the report.

import type { Citation, Contact, Diligence, Fact, GridFeature, ParcelGeometry, RuleEvidence, Screen, SiteReport } from './model.js';
import { formatDate, formatValue, humanize, NONE } from './format.js';

type Json = Record<string, unknown>;

const obj = (value: unknown): Json => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

export interface GridInput {
  loadedSources: string[];
  features: GridFeature[];
  /** source → layer version id, for the vintage section. */
  layerVersions?: Record<string, string>;
}

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** Must evidence and preferred evidence line up with the applied spec's rules, index by index. */
export function ruleEvidence(appliedSpec: unknown, evaluation: unknown): RuleEvidence[] {
  const spec = obj(appliedSpec);
  const breakdown = obj(obj(evaluation).score_breakdown);
  const mustEvidence = list(breakdown.must).map(obj);
  const preferredEvidence = list(breakdown.preferred).map(obj);
  const must = list(spec.must).map(obj).map((rule, index): RuleEvidence => {
    const found = mustEvidence[index] ?? {};
    const status = found.status === 'pass' || found.status === 'fail' ? found.status : 'unknown';
    return { kind: 'must', field: String(rule.field ?? found.field ?? NONE), op: String(rule.op ?? ''), expected: rule.value, actual: found.value ?? null, status };
  });
  const preferred = list(spec.preferred).map(obj).map((rule, index): RuleEvidence => {
    const found = preferredEvidence[index] ?? {};
    const actual = found.value ?? null;
    const contribution = num(found.contribution) ?? 0;
    const status = actual === null ? 'unknown' : contribution > 0 ? 'pass' : 'fail';
    return { kind: 'preferred', field: String(rule.field ?? found.field ?? NONE), op: String(rule.op ?? ''), expected: rule.value, actual, status, weight: num(rule.weight) ?? undefined, contribution };
  });
  return [...must, ...preferred];
}

function screenOf(deepScreen: unknown): Screen | null {
  if (deepScreen === null || typeof deepScreen !== 'object') return null;
  const screen = obj(deepScreen);
  return {
    buyBox: text(screen.buy_box) ?? NONE,
    verdict: text(screen.verdict) ?? NONE,
    score: num(screen.score),
    eligible: typeof screen.eligible === 'boolean' ? screen.eligible : null,
    source: text(screen.source),
    screenedAt: text(screen.screened_at),
    vintageId: text(screen.vintage_id),
    evidence: ruleEvidence(screen.applied_spec, screen.evaluation),
  };
}

function diligenceOf(value: unknown): Diligence | null {
  if (value === null || typeof value !== 'object') return null;
  const diligence = obj(value);
  return {
    status: text(diligence.status) ?? 'unknown',
    steps: list(diligence.steps).map(obj).map((step) => ({
      name: text(step.name) ?? 'step',
      status: text(step.status) ?? 'unknown',
      summary: text(step.summary) ?? '',
      citations: list(step.citations)
        .map(obj)
        .map((citation): Citation => ({ title: text(citation.title), url: text(citation.url) }))
        .filter((citation) => citation.title || citation.url),
    })),
  };
}

/** A revealed contact's fields as lines; nested values are flattened one level, never dumped raw. */
function contactOf(value: unknown): Contact {
  const entry = obj(value);
  const contact = obj(entry.contact);
  const lines: Fact[] = [];
  for (const [key, field] of Object.entries(contact)) {
    if (field === null || field === undefined || field === '') continue;
    if (typeof field === 'object' && !Array.isArray(field)) {
      const parts = Object.values(field as Json).filter((part) => typeof part === 'string' || typeof part === 'number');
      if (parts.length > 0) lines.push({ label: humanize(key), value: parts.join(', ') });
      continue;
    }
    lines.push({ label: humanize(key), value: formatValue(field) });
  }
  return { lines, provider: text(entry.provider), recordedAt: text(entry.created_at) ? formatDate(text(entry.created_at)) : null };
}

/** The site report of a property page and the nearest grid features at its point. */
export function siteReportFromPropertyPage(page: unknown, grid: GridInput, generatedAt: Date): SiteReport {
  const body = obj(page);
  const property = obj(body.property);
  const parcel = obj(property.parcel);
  const typed = obj(parcel.typed);
  const facts = { ...obj(obj(obj(body.deep_screen).evaluation).facts), ...typed };
  const item = obj(property.pipeline_item);
  const apn = text(property.apn) ?? text(typed.apn);
  const parcelKey = text(property.parcel_key) ?? NONE;
  const address = text(property.address) ?? text(typed.address);
  const lat = num(property.lat) ?? num(parcel.lat);
  const lon = num(property.lon) ?? num(parcel.lon);
  const acres = num(property.acres) ?? num(typed.acres);
  const assessed = num(facts.assessed_value_usd);
  const screen = screenOf(body.deep_screen);

  const keyFacts: Fact[] = [
    { label: 'APN', value: apn ?? NONE },
    { label: 'Address', value: address ?? NONE },
    { label: 'Owner', value: formatValue(facts.owner_name) },
    { label: 'Acres', value: formatValue(acres) },
    { label: 'Developable acres', value: formatValue(facts.developable_acres) },
    { label: 'Zoning', value: formatValue(facts.zoning) },
    { label: 'Land use', value: formatValue(facts.land_use) },
    { label: 'Assessed value', value: assessed === null ? NONE : USD.format(assessed) },
    { label: 'Market', value: text(property.market) ?? NONE },
    { label: 'Parcel key', value: parcelKey },
    { label: 'Location', value: lat === null || lon === null ? NONE : `${lat.toFixed(6)}, ${lon.toFixed(6)}` },
    { label: 'Pipeline stage', value: text(item.stage) ? humanize(text(item.stage)!) : 'not on the board' },
  ];
  for (const feature of grid.features) {
    const label = feature.kind === 'substation' ? 'Nearest substation' : 'Nearest transmission line';
    const kv = typeof feature.voltageKv === 'number' ? `, ${formatValue(feature.voltageKv)} kV` : '';
    keyFacts.push({ label, value: `${formatValue(Math.round(feature.distanceM))} m${kv}${feature.name ? ` (${feature.name})` : ''}` });
  }

  const vintage: Fact[] = [
    { label: 'Parcel vintage', value: text(property.vintage_id) ?? NONE },
    { label: 'Screened', value: formatDate(screen?.screenedAt) },
    { label: 'Screening vintage', value: screen?.vintageId ?? NONE },
    { label: 'Screened as', value: screen?.source ? humanize(screen.source) : NONE },
    { label: 'Property since', value: formatDate(text(property.created_at)) },
    { label: 'Report generated', value: generatedAt.toISOString().replace('T', ' ').slice(0, 16) + ' UTC' },
  ];
  for (const [source, version] of Object.entries(grid.layerVersions ?? {})) vintage.push({ label: humanize(source.replace(/^hifld_/, '')), value: `layer ${version}` });

  return {
    title: apn ? `APN ${apn}` : `Parcel ${parcelKey}`,
    reference: apn ?? parcelKey,
    facts: keyFacts,
    map: {
      geometry: (parcel.geometry as ParcelGeometry | null | undefined) ?? null,
      point: lat === null || lon === null ? null : { lat, lon },
      grid: grid.features,
      gridLoaded: grid.loadedSources,
    },
    screen,
    diligence: diligenceOf(body.diligence),
    contacts: list(body.contacts).map(contactOf).filter((contact) => contact.lines.length > 0),
    vintage,
    generatedAt,
  };
}
