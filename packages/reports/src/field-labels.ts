// Facts as a reader says them: a label and unit from the field catalog (or, for the parcel
// record's own columns and free facts, from the unit its name ends in), and the value rounded
// per the field's unit (@landscreen/field-catalog rounding), never a machine name or 17 digits.

import { FIELD_BY_NAME, roundFact } from '@landscreen/field-catalog';
import { formatOp, formatValue, NONE } from './format.js';

/** Catalog units as a reader writes them. */
const UNIT_TEXT: Readonly<Record<string, string>> = {
  meters: 'm',
  m: 'm',
  centimeters: 'cm',
  degrees: '°',
  acre: 'acres',
  acres: 'acres',
  percent: '%',
  pct: '%',
  square_meters: 'm²',
  MW: 'MW',
  megawatts: 'MW',
  MWac: 'MWac',
  kilovolts: 'kV',
  kV: 'kV',
  'USD/kWh': '$/kWh',
  'USD/MWh': '$/MWh',
  'USD/MCF': '$/Mcf',
  'kgCO2e/MWh': 'kg CO₂e/MWh',
  'm3/day': 'm³/day',
  'kWh/m2/day': 'kWh/m²/day',
  'kWh/kW': 'kWh/kW',
  'm/s': 'm/s',
  'W/m2': 'W/m²',
  degC: '°C',
  days: 'days',
  g: 'g',
  mph: 'mph',
  'units/km2': 'per km²',
  usd: 'USD',
};

/** Name endings that carry a unit (fields outside the catalog), and the unit they mean. */
const SUFFIX_UNITS: readonly [RegExp, string][] = [
  [/_usd$/, 'usd'],
  [/(?:^|_)acres$/, 'acres'],
  [/_(?:m2|sqm|square_meters)$/, 'square_meters'],
  [/_km$/, 'km'],
  [/_mi$/, 'mi'],
  [/_ft$/, 'ft'],
  [/_cm$/, 'centimeters'],
  [/_m$/, 'meters'],
  [/_degrees$/, 'degrees'],
  [/_pct$/, 'pct'],
  [/_kv$/, 'kilovolts'],
  [/_mw$/, 'MW'],
];

/** Words machine names abbreviate. */
const WORDS: Readonly<Record<string, string>> = { apn: 'APN', usd: 'USD', kv: 'kV', mw: 'MW', id: 'ID', fema: 'FEMA', nlcd: 'NLCD', ghi: 'GHI', dni: 'DNI', ndvi: 'NDVI', iso: 'ISO', rto: 'RTO', lmp: 'LMP', dem: 'DEM', hifld: 'HIFLD', us: 'US', epa: 'EPA', nwi: 'NWI', nri: 'NRI', cdl: 'CDL' };

/** The unit of a fact: the catalog's, else the one its name ends in, else none. */
export function unitOf(field: string): string | null {
  const record = FIELD_BY_NAME.get(field);
  if (record) return record.unit;
  for (const [pattern, unit] of SUFFIX_UNITS) if (pattern.test(field)) return unit;
  return null;
}

/** The unit as printed after a number ("m", "%", "acres"); null when the field has none. */
export function unitText(field: string): string | null {
  const unit = unitOf(field);
  return unit === null ? null : (UNIT_TEXT[unit] ?? unit);
}

/** A field's label: its name in words, without the unit ending its name ("nearest_substation_distance_m" → "Nearest substation distance"). */
export function fieldLabel(field: string): string {
  const unit = unitOf(field);
  let name = field;
  for (const [pattern, suffixUnit] of SUFFIX_UNITS) {
    // Acres are what is measured, not only its unit: "Developable acres" keeps its last word.
    if (suffixUnit === 'acres') continue;
    if (suffixUnit === unit || (unit !== null && UNIT_TEXT[suffixUnit] === UNIT_TEXT[unit])) name = name.replace(pattern, '');
  }
  const words = name
    .split('_')
    .filter(Boolean)
    .map((word) => WORDS[word] ?? word);
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const MONEY = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const GROUPED = new Intl.NumberFormat('en-US', { maximumFractionDigits: 7 });

/** A fact's value rounded per its field and followed by its unit: "174.4 m", "$1,250,000", "yes". */
export function formatFact(field: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return NONE;
  const shown = roundFact(field, value);
  if (typeof shown !== 'number') return formatValue(shown);
  if (!Number.isFinite(shown)) return NONE;
  const unit = unitOf(field);
  if (unit === 'usd') return MONEY.format(shown);
  const text = GROUPED.format(shown);
  const suffix = unitText(field);
  if (suffix === null) return text;
  return suffix === '°' || suffix === '%' ? `${text}${suffix}` : `${text} ${suffix}`;
}

/** A value a rule compares with, in the rule field's unit ("≤ 3,000 m"); lists and ranges item by item. */
export function formatRuleValue(field: string, value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? NONE : value.map((item) => formatFact(field, item)).join(', ');
  return formatFact(field, value);
}

/** The expected side of a rule: "between" reads "a and b", "exists" has none; in the field's unit when one is named. */
export function formatExpected(op: string, value: unknown, field?: string): string {
  const show = (item: unknown) => (field ? formatRuleValue(field, item) : formatValue(item));
  if (op === 'exists') return value === false ? 'not known' : '';
  if (op === 'between' && Array.isArray(value) && value.length === 2) return `${show(value[0])} and ${show(value[1])}`;
  return show(value);
}

export function formatRule(rule: { field: string; op: string; value: unknown }): string {
  const expected = formatExpected(rule.op, rule.value, rule.field);
  return [fieldLabel(rule.field), formatOp(rule.op), expected].filter(Boolean).join(' ');
}
