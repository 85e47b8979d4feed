// A property's site report made from the protobuf messages the services answer: the property page
// (GetProperty: the property, its deep screen, diligence and contacts) or a report property
// (GetReportProperties, a delivery's leads). Anything missing prints as "—" rather than failing.

import type { diligencev1, discoveryv1, pipelinev1 } from '@landscreen/proto';
import { factSheet } from './fact-sheet.js';
import { formatDate, humanize, NONE, shortReference } from './format.js';
import { formatFact } from './field-labels.js';
import { jsonOf, numberOf, objectOf, openDocument, scoreBreakdownOf, textOf, type OpenObject } from './messages.js';
import type { Citation, Contact, Diligence, Fact, GridFeature, ParcelGeometry, RuleEvidence, Screen, SiteReport } from './model.js';

export interface GridInput {
  loadedSources: string[];
  features: GridFeature[];
  /** source → layer version id, for the vintage section. */
  layerVersions?: Record<string, string>;
}

/** The parcel as discovery answers it, for a property stored without its geometry. */
export type ParcelFallback = discoveryv1.ParcelCandidate | undefined;

/** Must evidence and preferred evidence line up with the applied spec's rules, index by index. */
export function ruleEvidence(spec: discoveryv1.BuyBoxSpec | undefined, breakdown: discoveryv1.ScoreBreakdown | undefined): RuleEvidence[] {
  const must = (spec?.must ?? []).map((rule, index): RuleEvidence => {
    const found = breakdown?.must[index];
    const status = found?.status === 'pass' || found?.status === 'fail' ? found.status : 'unknown';
    return { kind: 'must', field: rule.field || found?.field || NONE, op: rule.op, expected: jsonOf(rule.value), actual: jsonOf(found?.value), status };
  });
  const preferred = (spec?.preferred ?? []).map((rule, index): RuleEvidence => {
    const found = breakdown?.preferred[index];
    const actual = jsonOf(found?.value);
    const contribution = found?.contribution ?? 0;
    const status = actual === null ? 'unknown' : contribution > 0 ? 'pass' : 'fail';
    return { kind: 'preferred', field: rule.field || found?.field || NONE, op: rule.op, expected: jsonOf(rule.value), actual, status, weight: rule.weight, contribution };
  });
  return [...must, ...preferred];
}

interface ScreenParts {
  buyBox: string;
  verdict: string;
  score: number;
  eligible: boolean;
  source: string;
  screenedAt: string;
  vintageId: string;
  spec: discoveryv1.BuyBoxSpec | undefined;
  breakdown: discoveryv1.ScoreBreakdown | undefined;
}

const screenOf = (parts: ScreenParts | null): Screen | null =>
  parts && {
    buyBox: parts.buyBox || NONE,
    verdict: parts.verdict || NONE,
    score: Number.isFinite(parts.score) ? parts.score : null,
    eligible: parts.eligible,
    source: textOf(parts.source),
    screenedAt: textOf(parts.screenedAt),
    vintageId: textOf(parts.vintageId),
    evidence: ruleEvidence(parts.spec, parts.breakdown),
  };

function diligenceOf(answer: diligencev1.GetPropertyDiligenceResponse | undefined): Diligence | null {
  const diligence = answer?.diligence;
  if (!diligence) return null;
  return {
    status: diligence.status || 'unknown',
    steps: diligence.steps.map((step) => {
      const citations = openDocument(step.citationsJson);
      return {
        name: step.name || 'step',
        status: step.status || 'unknown',
        summary: step.summary,
        citations: (Array.isArray(citations) ? citations : [])
          .map(objectOf)
          .map((citation): Citation => ({ title: textOf(citation.title), url: textOf(citation.url) }))
          .filter((citation) => citation.title || citation.url),
      };
    }),
  };
}

/** A revealed contact's fields as lines; nested values are flattened one level, never dumped raw. */
function contactOf(contact: diligencev1.Contact): Contact {
  const lines: Fact[] = [];
  for (const [key, field] of Object.entries(objectOf(openDocument(contact.contactJson)))) {
    if (field === null || field === undefined || field === '') continue;
    if (typeof field === 'object' && !Array.isArray(field)) {
      const parts = Object.values(field).filter((part) => typeof part === 'string' || typeof part === 'number');
      if (parts.length > 0) lines.push({ label: humanize(key), value: parts.join(', ') });
      continue;
    }
    lines.push({ label: humanize(key), value: formatFact(key, field) });
  }
  return { lines, provider: textOf(contact.provider), recordedAt: textOf(contact.createdAt) ? formatDate(contact.createdAt) : null };
}

/** What every property source gives a report, with its open documents decoded. */
interface PropertyParts {
  id: string;
  market: string;
  parcelKey: string;
  vintageId: string;
  apn?: string;
  address?: string;
  lat?: number;
  lon?: number;
  acres?: number;
  createdAt: string;
  stage: string | null;
  /** Every fact known of the parcel: the screening's, then the parcel record's over them. */
  facts: OpenObject;
  geometry: ParcelGeometry | null;
  screen: ScreenParts | null;
  diligence: diligencev1.GetPropertyDiligenceResponse | undefined;
}

const geometryOf = (value: unknown): ParcelGeometry | null => {
  const geometry = objectOf(value);
  return typeof geometry.type === 'string' ? (geometry as ParcelGeometry) : null;
};

/** The typed, free and derived facts of a stored parcel document (a ParcelCandidate's JSON). */
function parcelDocumentFacts(parcel: OpenObject): OpenObject {
  return { ...objectOf(parcel.free_facts), ...objectOf(parcel.derived), ...objectOf(parcel.typed) };
}

function fallbackFacts(parcel: ParcelFallback): { facts: OpenObject; geometry: ParcelGeometry | null } {
  if (!parcel) return { facts: {}, geometry: null };
  return {
    facts: { ...objectOf(openDocument(parcel.freeFactsJson)), ...objectOf(openDocument(parcel.derivedJson)), ...objectOf(openDocument(parcel.typedJson)) },
    geometry: geometryOf(openDocument(parcel.geometryJson)),
  };
}

/** The geometry stored with a property (its parcel document's), if any: without one, a report asks discovery for the parcel. */
export function storedGeometry(property: pipelinev1.Property): ParcelGeometry | null {
  return geometryOf(objectOf(openDocument(property.parcelJson)).geometry);
}

/** The site report of a property page (GetProperty) and the grid features at its point. */
export function siteReportFromProperty(page: pipelinev1.GetPropertyResponse, grid: GridInput, generatedAt: Date, parcel?: ParcelFallback): SiteReport {
  const property = page.property;
  const stored = objectOf(openDocument(property?.parcelJson));
  const evaluation = objectOf(openDocument(page.deepScreen?.evaluationJson));
  const fallback = fallbackFacts(parcel);
  const match = page.deepScreen?.match;
  return siteReportOf(
    {
      id: property?.id ?? '',
      market: property?.market ?? '',
      parcelKey: property?.parcelKey ?? '',
      vintageId: property?.vintageId ?? '',
      apn: property?.apn,
      address: property?.address,
      lat: property?.lat,
      lon: property?.lon,
      acres: property?.acres,
      createdAt: property?.createdAt ?? '',
      stage: property?.pipelineItem?.stage ?? null,
      facts: { ...fallback.facts, ...objectOf(evaluation.facts), ...parcelDocumentFacts(stored) },
      geometry: geometryOf(stored.geometry) ?? fallback.geometry,
      screen: match ? { ...match, spec: page.deepScreen?.appliedSpec, breakdown: scoreBreakdownOf(evaluation) } : null,
      diligence: page.diligence,
    },
    grid,
    generatedAt,
    page.diligence?.contacts ?? [],
  );
}

/** The site report of a report property (GetReportProperties: a delivery's lead). */
export function siteReportFromReportProperty(property: pipelinev1.ReportProperty, grid: GridInput, generatedAt: Date, parcel?: ParcelFallback): SiteReport {
  const fallback = fallbackFacts(parcel);
  const screen = property.screen;
  return siteReportOf(
    {
      ...property,
      stage: property.stage ?? null,
      facts: { ...fallback.facts, ...objectOf(openDocument(property.typedFactsJson)) },
      geometry: geometryOf(openDocument(property.geometryJson)) ?? fallback.geometry,
      screen: screen ? { ...screen, spec: screen.appliedSpec, breakdown: screen.scoreBreakdown } : null,
      diligence: undefined,
    },
    grid,
    generatedAt,
    [],
  );
}

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** Free facts a market may carry for an asking or sale price, preferred in this order over the assessed value. */
const PRICE_FACTS = ['asking_price_usd', 'list_price_usd', 'price_usd', 'sale_price_usd'];

/** The price a committee weighs and its basis: an asking or sale price when the market carries one, else the assessed value. */
function priceOf(facts: OpenObject): { usd: number; basis: string } | null {
  for (const name of PRICE_FACTS) {
    const usd = numberOf(facts[name]);
    if (usd !== null) return { usd, basis: humanize(name.replace(/_usd$/, '')).toLowerCase() };
  }
  const assessed = numberOf(facts.assessed_value_usd);
  return assessed === null ? null : { usd: assessed, basis: 'assessed value' };
}

function siteReportOf(parts: PropertyParts, grid: GridInput, generatedAt: Date, contacts: diligencev1.Contact[]): SiteReport {
  const facts = parts.facts;
  const apn = parts.apn ?? textOf(facts.apn);
  const address = parts.address ?? textOf(facts.address);
  const lat = parts.lat ?? numberOf(facts.lat);
  const lon = parts.lon ?? numberOf(facts.lon);
  const acres = parts.acres ?? numberOf(facts.acres);
  const screen = screenOf(parts.screen);
  const price = priceOf(facts);
  const perAcre = price && acres ? price.usd / acres : null;

  const keyFacts: Fact[] = [
    { label: 'APN', value: apn ?? NONE },
    { label: 'Address', value: address ?? NONE },
    { label: 'Owner', value: formatFact('owner_name', facts.owner_name) },
    { label: 'Acres', value: formatFact('acres', acres) },
    { label: 'Developable acres', value: formatFact('developable_acres', facts.developable_acres) },
    { label: 'Zoning', value: formatFact('zoning', facts.zoning) },
    { label: 'Land use', value: formatFact('land_use', facts.land_use) },
    { label: 'Price', value: price ? `${USD.format(price.usd)} (${price.basis})` : NONE },
    { label: 'Price per acre', value: perAcre === null ? NONE : `${USD.format(perAcre)} / acre` },
    { label: 'Market', value: parts.market || NONE },
    { label: 'Location', value: lat === null || lat === undefined || lon === null || lon === undefined ? NONE : `${lat.toFixed(5)}, ${lon.toFixed(5)}` },
    { label: 'Pipeline stage', value: parts.stage ? humanize(parts.stage) : 'not on the board' },
  ];
  for (const feature of grid.features) {
    const label = feature.kind === 'substation' ? 'Nearest substation' : 'Nearest transmission line';
    const kv = typeof feature.voltageKv === 'number' ? `, ${formatFact('voltage_kv', feature.voltageKv)}` : '';
    keyFacts.push({ label, value: `${formatFact('distance_m', Math.round(feature.distanceM))}${kv}${feature.name ? ` (${feature.name})` : ''}` });
  }

  const vintage: Fact[] = [
    { label: 'Property reference', value: shortReference(parts.id) },
    { label: 'Parcel key', value: parts.parcelKey || NONE },
    { label: 'Parcel vintage', value: shortReference(parts.vintageId) },
    { label: 'Screened', value: formatDate(screen?.screenedAt) },
    { label: 'Screening vintage', value: shortReference(screen?.vintageId) },
    { label: 'Screened as', value: screen?.source ? humanize(screen.source) : NONE },
    { label: 'Property since', value: formatDate(parts.createdAt) },
    { label: 'Report generated', value: generatedAt.toISOString().replace('T', ' ').slice(0, 16) + ' UTC' },
  ];
  for (const [source, version] of Object.entries(grid.layerVersions ?? {})) vintage.push({ label: humanize(source.replace(/^hifld_/, '')), value: `layer ${shortReference(version)}` });

  const reference = apn ?? (parts.parcelKey || NONE);
  return {
    title: apn ? `APN ${apn}` : address ?? `Parcel ${parts.parcelKey || NONE}`,
    reference,
    facts: keyFacts,
    factSheet: factSheet(facts),
    map: {
      geometry: parts.geometry,
      point: typeof lat === 'number' && typeof lon === 'number' ? { lat, lon } : null,
      grid: grid.features,
      gridLoaded: grid.loadedSources,
    },
    screen,
    diligence: diligenceOf(parts.diligence),
    contacts: contacts.map(contactOf).filter((contact) => contact.lines.length > 0),
    vintage,
    generatedAt,
  };
}
