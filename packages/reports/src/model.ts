import type { JsonValue } from '@bufbuild/protobuf';

// What a report prints, as plain typed data: the renderers read nothing else (no database, no
// network), so a report is a pure function of this and can be built and tested from any source.

/** GeoJSON geometry as the parcel files carry it (WGS84 lon/lat). */
export type ParcelGeometry =
  | { type: 'Polygon'; coordinates: number[][][] }
  | { type: 'MultiPolygon'; coordinates: number[][][][] }
  | { type: 'Point'; coordinates: number[] }
  | { type: string; coordinates?: unknown };

/** The nearest grid feature of a kind: where its nearest point is, how far, what it is. */
export interface GridFeature {
  kind: 'substation' | 'transmission_line';
  lat: number;
  lon: number;
  distanceM: number;
  voltageKv?: number | null;
  status?: string | null;
  name?: string | null;
  /** A line's course near the point: paths of [lon, lat] positions (empty for substations). */
  paths?: [number, number][][];
}

export interface ParcelMap {
  geometry: ParcelGeometry | null;
  /** The parcel's representative point, drawn when it has no polygon. */
  point: { lat: number; lon: number } | null;
  /** The nearest substation and transmission line, when those layers are loaded. */
  grid: GridFeature[];
  /** The grid sources with a current layer (empty: grid layers not loaded, said on the map). */
  gridLoaded: string[];
}

export interface Fact {
  label: string;
  value: string;
}

/** One group of the fact sheet (a catalog group, the parcel record, the market's other facts). */
export interface FactGroup {
  title: string;
  facts: Fact[];
  /** How many fields the group has in the catalog (or the facts shown, for the market's own). */
  fieldCount: number;
}

export type EvidenceStatus = 'pass' | 'fail' | 'unknown';

/** One rule of the buy box and how the parcel met it. */
export interface RuleEvidence {
  kind: 'must' | 'preferred';
  field: string;
  op: string;
  expected: JsonValue;
  actual: JsonValue;
  status: EvidenceStatus;
  /** Preferred rules: the weight and the points it earned. */
  weight?: number;
  contribution?: number;
}

export interface Screen {
  buyBox: string;
  verdict: string;
  score: number | null;
  eligible: boolean | null;
  source: string | null;
  screenedAt: string | null;
  vintageId: string | null;
  evidence: RuleEvidence[];
  /** Said instead of the evidence table when the evidence shown elsewhere is not this screening's. */
  evidenceNote?: string;
}

export interface Citation {
  title?: string | null;
  url?: string | null;
}

export interface DiligenceStep {
  name: string;
  status: string;
  summary: string;
  citations: Citation[];
}

export interface Diligence {
  status: string;
  steps: DiligenceStep[];
}

export interface Contact {
  /** Label/value pairs of what was revealed (name, phone, email, mailing address, ...). */
  lines: Fact[];
  provider?: string | null;
  recordedAt?: string | null;
}

/** A property as the site report shows it. */
export interface SiteReport {
  title: string;
  /** APN, else the parcel key: names the file and heads the pages. */
  reference: string;
  facts: Fact[];
  /** Every fact screened, grouped as the field catalog groups them (the full site report prints it). */
  factSheet: FactGroup[];
  map: ParcelMap;
  screen: Screen | null;
  diligence: Diligence | null;
  contacts: Contact[];
  /** Where the figures come from: vintage, screening date, layer versions. */
  vintage: Fact[];
  generatedAt: Date;
}

export interface BuyBoxSummary {
  name: string;
  /** The rules in words, e.g. "must: acres >= 50". */
  rules: string[];
  market?: string | null;
  cutoffs?: { pursue: number; monitor: number } | null;
}

/** A delivery: its buy box, a summary row per lead and a page per lead. */
export interface DeliveryReport {
  title: string;
  reference: string;
  createdAt: string | null;
  note?: string | null;
  buyBox: BuyBoxSummary | null;
  leads: SiteReport[];
  generatedAt: Date;
}
