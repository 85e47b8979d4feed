// How a number is shown (D40): rounded per the unit of its field, so that an answer says
// 174.4 m rather than 174.38540113374782 m. Rounding is for showing only: ranking, evaluation,
// derivations and stored facts keep every digit, and only the writers of an answer round.
//
// Each unit is shown to the resolution its measurements mean something at (a tenth of a metre of
// a distance computed from mapped features, a tenth of a degree of slope); acres keep the four
// decimals the parcel import computes them to (a ten-thousandth of an acre is 0.4 m²);
// docs/decisions.md, "Numbers rounded per unit", has the table and the reasons.

import { FIELD_BY_NAME } from './fields.js';

/** Decimal places, or significant digits for numbers without a unit whose scale varies. */
export type Rounding = { decimals: number } | { significant: number };

/** Decimal places per catalog unit, as the catalog spells them. */
export const DECIMALS_BY_UNIT: Readonly<Record<string, number>> = Object.freeze({
  meters: 1,
  m: 1,
  centimeters: 0,
  degrees: 1,
  acre: 4,
  acres: 4,
  square_meters: 1,
  percent: 2,
  pct: 2,
  MW: 3,
  megawatts: 3,
  MWac: 3,
  kilovolts: 1,
  kV: 1,
  'USD/kWh': 5,
  'USD/MWh': 2,
  'USD/MCF': 3,
  'kgCO2e/MWh': 1,
  'm3/day': 1,
  'kWh/m2/day': 3,
  'kWh/kW': 1,
  'm/s': 2,
  'W/m2': 1,
  degC: 1,
  days: 1,
  g: 4,
  mph: 1,
  'units/km2': 2,
});

/** A share of a whole (0 to 1): four decimals, a hundredth of a percent. */
export const FRACTION: Rounding = Object.freeze({ decimals: 4 });
/** A unitless number whose scale varies by field (an index, a yearly frequency, NDVI): four significant digits. */
export const UNITLESS: Rounding = Object.freeze({ significant: 4 });
/** A WGS84 coordinate, in degrees: 1e-7° is about a centimetre. */
export const COORDINATE: Rounding = Object.freeze({ decimals: 7 });

/**
 * Fields outside the catalog (the parcel schema's typed columns, a market's free facts) carry their
 * unit in their name, if anywhere; checked in order. A name that says nothing is shown as stored.
 */
const SUFFIX_ROUNDING: readonly [RegExp, Rounding][] = [
  [/(?:^|_)acres$/, { decimals: 4 }],
  [/(?:^|_)usd$/, { decimals: 2 }],
  [/_fraction(?:_of_parcel)?$/, FRACTION],
  [/_(?:m2|sqm|square_meters)$/, { decimals: 1 }],
  [/_km$/, { decimals: 3 }],
  [/_mi$/, { decimals: 3 }],
  [/_ft$/, { decimals: 1 }],
  [/_cm$/, { decimals: 0 }],
  [/_m$/, { decimals: 1 }],
  [/_degrees$/, { decimals: 1 }],
  [/_pct$/, { decimals: 2 }],
  [/_kv$/, { decimals: 1 }],
  [/_mw$/, { decimals: 3 }],
];

const cache = new Map<string, Rounding | null>();

/**
 * How a field's numbers are shown, or null when they are shown as stored (integers, and names
 * that tell no unit). Catalog fields go by their unit; a float without one is a fraction when its
 * name or description says so, else four significant digits.
 */
export function roundingOf(field: string): Rounding | null {
  let rounding = cache.get(field);
  if (rounding !== undefined) return rounding;
  rounding = lookUp(field);
  if (cache.size < 10_000) cache.set(field, rounding);
  return rounding;
}

function lookUp(field: string): Rounding | null {
  const record = FIELD_BY_NAME.get(field);
  if (record) {
    if (record.type !== 'float') return null;
    if (record.unit !== null) {
      const decimals = DECIMALS_BY_UNIT[record.unit];
      return decimals === undefined ? UNITLESS : { decimals };
    }
    return /fraction|albedo/.test(field) ? FRACTION : UNITLESS;
  }
  for (const [pattern, rule] of SUFFIX_ROUNDING) if (pattern.test(field)) return rule;
  return null;
}

/** A number rounded by a rule; -0 becomes 0, and what is not a finite number is returned as is. */
export function roundBy(value: number, rounding: Rounding): number {
  if (!Number.isFinite(value)) return value;
  // toFixed/toPrecision round the exact binary value, as the decimal string a reader would write.
  const rounded = 'decimals' in rounding ? Number(value.toFixed(rounding.decimals)) : Number(value.toPrecision(rounding.significant));
  return rounded === 0 ? 0 : rounded;
}

/** A fact's value as shown: a number rounded per its field, anything else as it is. */
export function roundFact(field: string, value: unknown): unknown {
  if (typeof value !== 'number') return value;
  const rounding = roundingOf(field);
  return rounding === null ? value : roundBy(value, rounding);
}

/** A function that shows numbers of one field (for writers that write a field many times). */
export function rounderOf(field: string): (value: number) => number {
  const rounding = roundingOf(field);
  return rounding === null ? (value) => value : (value) => roundBy(value, rounding);
}

/** A record of facts as shown: a new object, each number rounded per its field. */
export function roundFacts(facts: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  for (const field of Object.keys(facts)) {
    const value = typeof facts[field] === 'number' ? roundFact(field, facts[field]) : facts[field];
    // A free fact may be called "__proto__": it must stay an own property, as JSON.parse makes it.
    if (field === '__proto__') Object.defineProperty(shown, field, { value, enumerable: true, writable: true, configurable: true });
    else shown[field] = value;
  }
  return shown;
}

/** A coordinate as shown (1e-7°). */
export function roundCoordinate(value: number): number {
  return roundBy(value, COORDINATE);
}
