// A SourceRow to the facts of one parcel (D13): known typed columns, catalog fields as derived
// facts with provenance `import`, everything else as free facts. Pure and synchronous, so the
// importer can map a batch of rows between reads without awaiting anything.

import { FIELD_BY_NAME } from '@landscreen/field-catalog';
import { CoercionError, toBoolean, toInteger, toNumber, toText } from './coerce.js';
import { GeometryError, ParcelRowError } from './errors.js';
import { bbox, geodesicAreaAcres, representativePoint, validateGeometry } from './geometry.js';
import { normaliseAddress, normaliseApn } from './normalise.js';
import { setOwn } from './own.js';
import type { BBox, GeoJSONGeometry, SourceRow } from './types.js';

export interface ImportProvenance {
  source: 'import';
}
export interface ComputedProvenance {
  source: 'computed';
  formula: 'geodesic_area';
  formula_version: 1;
}
export type FactProvenance = ImportProvenance | ComputedProvenance;

export interface TypedFacts {
  acres: number | null;
  developable_acres: number | null;
  zoning: string | null;
  land_use: string | null;
  owner_name: string | null;
  assessed_value_usd: number | null;
  apn: string | null;
  address: string | null;
}

export interface ParcelRecord {
  line: number;
  parcelKey: string;
  apn: string | null;
  apnNormalised: string | null;
  address: string | null;
  addressNormalised: string | null;
  lat: number | null;
  lon: number | null;
  bbox: BBox | null;
  geometry: GeoJSONGeometry | null;
  typed: TypedFacts;
  derived: Record<string, unknown>;
  freeFacts: Record<string, unknown>;
  /** Per fact name: `acres` (imported or computed) and every derived fact. */
  provenance: Record<string, FactProvenance>;
}

/** D13: the typed facts every parcel has (the keys of TypedFacts). */
export const TYPED_FACT_FIELDS: readonly (keyof TypedFacts)[] = Object.freeze([
  'apn',
  'address',
  'owner_name',
  'zoning',
  'land_use',
  'acres',
  'developable_acres',
  'assessed_value_usd',
] as const);

/** Properties that feed `typed` (and the key); they never reach derived or free facts. */
export const TYPED_PROPERTIES: readonly string[] = Object.freeze(['parcel_key', ...TYPED_FACT_FIELDS]);
const TYPED = new Set(TYPED_PROPERTIES);

export const ACRES_FORMULA: ComputedProvenance = Object.freeze({
  source: 'computed',
  formula: 'geodesic_area',
  formula_version: 1,
});
const IMPORTED: ImportProvenance = Object.freeze({ source: 'import' });

export function toParcelRecord(row: SourceRow, market: string): ParcelRecord {
  const { line, properties } = row;
  const geometry = checkedGeometry(row);
  const get = <T>(name: string, convert: (value: unknown) => T): T => convertProperty(line, name, properties[name], convert);

  const apn = get('apn', toText);
  const apnNormalised = apn === null ? null : normaliseApn(apn) || null;
  const address = get('address', toText);
  const addressNormalised = address === null ? null : normaliseAddress(address) || null;
  const parcelKey = parcelKeyOf(get('parcel_key', toText), apnNormalised, market, line);

  const provenance: Record<string, FactProvenance> = {};
  let acres = get('acres', nonNegative);
  if (acres !== null) provenance.acres = IMPORTED;
  else if (geometry !== null) {
    const area = geodesicAreaAcres(geometry);
    if (area !== null) {
      acres = Math.round(area * 10_000) / 10_000;
      provenance.acres = ACRES_FORMULA;
    }
  }

  const typed: TypedFacts = {
    acres,
    developable_acres: get('developable_acres', nonNegative),
    zoning: get('zoning', toText),
    land_use: get('land_use', toText),
    owner_name: get('owner_name', toText),
    assessed_value_usd: get('assessed_value_usd', nonNegative),
    apn,
    address,
  };

  const derived: Record<string, unknown> = {};
  const freeFacts: Record<string, unknown> = {};
  for (const name of Object.keys(properties)) {
    if (TYPED.has(name)) continue;
    const value = properties[name];
    const field = FIELD_BY_NAME.get(name);
    if (field === undefined) {
      setOwn(freeFacts, name, value);
      continue;
    }
    const converted = convertProperty(line, name, value, CONVERT_BY_TYPE[field.type]);
    // An empty catalog value is "not imported", not a null fact: `prepare` may still derive it.
    if (converted === null) continue;
    setOwn(derived, name, converted);
    setOwn(provenance, name, IMPORTED);
  }

  const point = geometry === null ? null : representativePoint(geometry);
  return {
    line,
    parcelKey,
    apn,
    apnNormalised,
    address,
    addressNormalised,
    lat: point === null ? null : point[1],
    lon: point === null ? null : point[0],
    bbox: geometry === null ? null : bbox(geometry),
    geometry,
    typed,
    derived,
    freeFacts,
    provenance,
  };
}

const CONVERT_BY_TYPE: Record<string, (value: unknown) => unknown> = {
  float: toNumber,
  int: toInteger,
  bool: toBoolean,
  string: toText,
  str: toText,
};

function parcelKeyOf(key: string | null, apnNormalised: string | null, market: string, line: number): string {
  if (key !== null) return key;
  if (apnNormalised !== null) return `${market}:${apnNormalised}`;
  throw new ParcelRowError(line, 'no parcel_key and no apn');
}

/**
 * Readers hand over validated geometries, but rows are also built by hand (tests, the demo
 * market), and the measurements below trust their input; re-checking is cheap next to parsing.
 */
function checkedGeometry(row: SourceRow): GeoJSONGeometry | null {
  try {
    return validateGeometry(row.geometry);
  } catch (error) {
    if (error instanceof GeometryError) throw new ParcelRowError(row.line, `geometry: ${error.message}`);
    throw error;
  }
}

function nonNegative(value: unknown): number | null {
  const n = toNumber(value);
  if (n !== null && n < 0) throw new CoercionError(`must not be negative, got ${n}`);
  return n;
}

function convertProperty<T>(line: number, name: string, value: unknown, convert: (value: unknown) => T): T {
  try {
    return convert(value);
  } catch (error) {
    if (error instanceof CoercionError) throw new ParcelRowError(line, `property ${JSON.stringify(name)}: ${error.message}`);
    throw error;
  }
}
