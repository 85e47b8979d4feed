// Values as a person reads them: numbers grouped and rounded for their unit, booleans in words.

/** The catalog's units as they are written beside a number. */
const UNIT_LABELS: Record<string, string> = {
  m: 'm', meters: 'm', centimeters: 'cm', km: 'km', kilovolts: 'kV', kV: 'kV', megawatts: 'MW', MW: 'MW', MWac: 'MWac',
  usd: 'USD', acre: 'acres', acres: 'acres', degrees: '°', percent: '%', pct: '%', square_meters: 'm²', degC: '°C', fraction: '',
};
const METRES = new Set(['m', 'meters']);

export function formatNumber(value: number, digits = 2): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: Math.abs(value) >= 100 ? 0 : digits });
}

export function formatValue(value: unknown, unit?: string | null): string {
  if (value === null || value === undefined) return 'unknown';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') {
    const label = unit ? (UNIT_LABELS[unit] ?? unit) : '';
    if (unit && METRES.has(unit) && Math.abs(value) >= 1000) return `${formatNumber(value / 1000)} km`;
    if (label === '°' || label === '%') return `${formatNumber(value)}${label}`;
    return label ? `${formatNumber(value)} ${label}` : formatNumber(value);
  }
  if (Array.isArray(value)) return value.map((item) => formatValue(item)).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function formatScore(score: number): string {
  return score.toFixed(score % 1 === 0 ? 0 : 1);
}

const OPS: Record<string, string> = { eq: '=', ne: '≠', lt: '<', lte: '≤', gt: '>', gte: '≥', in: 'is one of', not_in: 'is not one of', between: 'between', contains: 'contains', exists: 'exists' };
export const opLabel = (op: string) => OPS[op] ?? op;
