// Units the buy-box text language understands ("3 km", "5 miles", "20 hectares", "5 degrees")
// and the conversion of a written quantity into the unit a field is stored in. The catalog states
// each point-data field's unit; typed parcel columns are not in the catalog, so their unit is
// read from the name's suffix (`_m`, `acres`, …), the naming convention both follow.

import { FIELD_BY_NAME } from '@landscreen/field-catalog';

type Dimension = 'length' | 'area' | 'angle' | 'ratio' | 'power' | 'voltage' | 'money';

interface UnitInfo {
  readonly dimension: Dimension;
  /** Size of the unit in the dimension's base unit (m, m², degree, percent, W, V, USD). */
  readonly factor: number;
}

const ACRE_M2 = 4046.8564224;

const TABLE: [Dimension, number, string[]][] = [
  ['length', 1, ['m', 'meter', 'meters', 'metre', 'metres']],
  ['length', 1000, ['km', 'kms', 'kilometer', 'kilometers', 'kilometre', 'kilometres']],
  ['length', 1609.344, ['mi', 'mile', 'miles']],
  ['length', 0.01, ['cm', 'centimeter', 'centimeters', 'centimetre', 'centimetres']],
  ['length', 0.3048, ['ft', 'foot', 'feet']],
  ['length', 0.9144, ['yd', 'yard', 'yards']],
  ['area', ACRE_M2, ['ac', 'acre', 'acres']],
  ['area', 10_000, ['ha', 'hectare', 'hectares']],
  ['area', 1, ['m2', 'm²', 'sqm', 'sq m', 'square meter', 'square meters', 'square metre', 'square metres']],
  ['area', 1_000_000, ['km2', 'km²', 'sq km', 'square kilometer', 'square kilometers', 'square kilometre', 'square kilometres']],
  ['area', 0.09290304, ['ft2', 'sqft', 'sq ft', 'square foot', 'square feet']],
  ['area', 2_589_988.110336, ['mi2', 'sq mi', 'square mile', 'square miles']],
  ['angle', 1, ['deg', 'degree', 'degrees', '°']],
  ['ratio', 1, ['%', 'pct', 'percent']],
  ['power', 1, ['w', 'watt', 'watts']],
  ['power', 1e3, ['kw', 'kilowatt', 'kilowatts']],
  ['power', 1e6, ['mw', 'mwac', 'megawatt', 'megawatts']],
  ['power', 1e9, ['gw', 'gigawatt', 'gigawatts']],
  ['voltage', 1, ['v', 'volt', 'volts']],
  ['voltage', 1e3, ['kv', 'kilovolt', 'kilovolts']],
  ['money', 1, ['usd', '$', 'dollar', 'dollars']],
];

const UNITS = new Map<string, UnitInfo>();
for (const [dimension, factor, names] of TABLE) {
  for (const name of names) UNITS.set(name, { dimension, factor });
}

/** The longest unit name, in words: units are recognised one or two words at a time. */
export const MAX_UNIT_WORDS = 2;

function key(unit: string): string {
  return unit.trim().toLowerCase().replace(/_/g, ' ').replace(/\s+/g, ' ');
}

export function isUnit(text: string): boolean {
  return UNITS.has(key(text));
}

/** Area and length units a bare "at least 50 acres" can stand for. */
export function unitDimension(text: string): Dimension | null {
  return UNITS.get(key(text))?.dimension ?? null;
}

// Suffixes of field names that carry their unit, checked in order (longest first).
const SUFFIX_UNITS: [RegExp, string][] = [
  [/(?:^|_)acres$/, 'acres'],
  [/_(?:m2|sqm|square_meters)$/, 'm2'],
  [/_km$/, 'km'],
  [/_mi$/, 'mi'],
  [/_ft$/, 'ft'],
  [/_cm$/, 'cm'],
  [/_m$/, 'm'],
  [/_degrees$/, 'degrees'],
  [/_pct$/, 'percent'],
  [/_kv$/, 'kv'],
  [/_mw$/, 'mw'],
  [/_usd$/, 'usd'],
];

/** The unit a field is stored in: the catalog's, else the one its name ends with, else null. */
export function fieldUnit(field: string, unitOf?: (field: string) => string | null | undefined): string | null {
  const given = unitOf?.(field);
  if (given) return given;
  const catalog = FIELD_BY_NAME.get(field)?.unit;
  if (catalog) return catalog;
  for (const [pattern, unit] of SUFFIX_UNITS) if (pattern.test(field)) return unit;
  return null;
}

export type Conversion = { value: number; note?: string } | { error: string };

/**
 * A quantity written in `unit`, expressed in the unit `field` is stored in. Different
 * dimensions (acres for a distance) are an error; a field whose unit is unknown keeps the number
 * as written, with a note saying so.
 */
export function convertQuantity(
  amount: number,
  unit: string,
  field: string,
  unitOf?: (field: string) => string | null | undefined,
): Conversion {
  const from = UNITS.get(key(unit));
  if (!from) return { error: `unknown unit '${unit}'` };
  const stored = fieldUnit(field, unitOf);
  const to = stored === null ? undefined : UNITS.get(key(stored));
  if (!to) return { value: amount, note: `the unit of '${field}' is not known, so '${unit}' was not converted` };
  if (to.dimension !== from.dimension) {
    return { error: `'${unit}' is not a unit of '${field}' (stored in ${stored})` };
  }
  // 12 significant digits hide binary noise (5 mi = 8046.72 m, not 8046.719999999999).
  return { value: Number(((amount * from.factor) / to.factor).toPrecision(12)) };
}
