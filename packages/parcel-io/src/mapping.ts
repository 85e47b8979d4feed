// A SourceRow to the facts of one parcel (D13): known typed columns, catalog fields as derived
// facts with provenance `import`, everything else as free facts. Pure and synchronous, so the
// importer can map a batch of rows between reads without awaiting anything.

import { FIELD_BY_NAME } from '@landscreen/field-catalog';
import { CoercionError, toBoolean, toInteger, toNumber, toText } from './coerce.js';
import { GeometryError, ParcelRowError } from './errors.js';
import { bbox, geodesicAreaAcres, representativePoint, validateGeometry } from './geometry.js';
import { normaliseAddress, normaliseApn } from './normalise.js';
import type { BBox, GeoJSONGeometry, SourceRow } from './types.js';

export interface ComputedProvenance {
  source: 'computed';
  formula: 'geodesic_area';
  formula_version: 1;
}

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
  /**
   * Catalog fields the row gave, converted to their catalog type. Maps, not objects: property
   * names come from files we do not control (a "__proto__" is an ordinary name here), and a
   * parcel has dozens of them, past where V8 keeps an object's properties fast.
   */
  derived: Map<string, unknown>;
  /** Every other property, exactly as given. */
  freeFacts: Map<string, unknown>;
  /**
   * How each fact this import computed rather than read was made (today: `acres` from the
   * geometry). Every other typed and derived fact is imported as given, which its vintage
   * implies (D13), so it is not spelled out per parcel.
   */
  computed: Record<string, ComputedProvenance>;
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

export function toParcelRecord(row: SourceRow, market: string): ParcelRecord {
  const { line, properties } = row;
  const geometry = checkedGeometry(row);
  const get = <T>(name: string, convert: (value: unknown) => T): T => convertProperty(line, name, properties[name], convert);

  const apn = get('apn', toText);
  const apnNormalised = apn === null ? null : normaliseApn(apn) || null;
  const address = get('address', toText);
  const addressNormalised = address === null ? null : normaliseAddress(address) || null;
  const parcelKey = parcelKeyOf(get('parcel_key', toText), apnNormalised, market, line);

  const computed: Record<string, ComputedProvenance> = {};
  let acres = get('acres', nonNegative);
  if (acres === null && geometry !== null) {
    const area = geodesicAreaAcres(geometry);
    if (area !== null) {
      acres = Math.round(area * 10_000) / 10_000;
      computed.acres = ACRES_FORMULA;
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

  const derived = new Map<string, unknown>();
  const freeFacts = new Map<string, unknown>();
  // for…in, not Object.keys: V8 reads `properties[name]` through the loop's enum cache (mapping
  // 100,000 demo parcels: 1.12 → 1.01 s). Readers hand over plain objects: nothing is inherited.
  for (const name in properties) {
    const convert = CATALOG_CONVERTERS.get(name);
    if (convert === undefined) {
      if (!TYPED.has(name)) freeFacts.set(name, properties[name]);
      continue;
    }
    const converted = convertProperty(line, name, properties[name], convert);
    // An empty catalog value is "not imported", not a null fact: `prepare` may still derive it.
    if (converted !== null) derived.set(name, converted);
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
    computed,
  };
}

const CONVERT_BY_TYPE: Record<string, (value: unknown) => unknown> = {
  float: toNumber,
  int: toInteger,
  bool: toBoolean,
  string: toText,
  str: toText,
};

/** Catalog fields that become derived facts, by name, with the conversion their type needs. */
const CATALOG_CONVERTERS = new Map(
  [...FIELD_BY_NAME].filter(([name]) => !TYPED.has(name)).map(([name, field]) => [name, CONVERT_BY_TYPE[field.type]!] as const),
);

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
