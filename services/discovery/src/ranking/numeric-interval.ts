/**
 * A numeric rule as one closed interval: every comparison op becomes `low <= fact <= high`, so
 * one loop serves them all instead of one loop per op. A strict bound moves to the adjacent
 * double, which is exact: for any non-NaN double x, `x < v` holds exactly when `x <= nextDown(v)`.
 * A NaN fact ("no value") is in no interval.
 */
export interface NumericInterval {
  low: number;
  high: number;
}

const bits = new DataView(new ArrayBuffer(8));

/** The double next to `value` (finite) towards +∞ (`step` 1) or −∞ (`step` −1). */
function adjacent(value: number, step: 1 | -1): number {
  if (value === 0) return step * Number.MIN_VALUE;
  bits.setFloat64(0, value);
  // Raising the bit pattern moves away from zero; for a negative number that is towards −∞.
  const away = value > 0 ? step : -step;
  bits.setBigUint64(0, bits.getBigUint64(0) + BigInt(away));
  return bits.getFloat64(0);
}

export const nextUp = (value: number): number => adjacent(value, 1);
export const nextDown = (value: number): number => adjacent(value, -1);

/**
 * The interval a canonical rule passes on, when it compares a number fact with finite numbers
 * (the canonical spec compares two numbers numerically; `between` is inclusive); undefined for
 * any other rule, which is then decided by its own test. `ne` is not an interval (it passes
 * outside one) and is left to its test.
 */
export function numericInterval(op: string | undefined, value: unknown): NumericInterval | undefined {
  const finite = (candidate: unknown): candidate is number => typeof candidate === 'number' && Number.isFinite(candidate);
  if (op === 'between') {
    if (!Array.isArray(value) || !finite(value[0]) || !finite(value[1])) return undefined;
    return { low: value[0], high: value[1] };
  }
  if (!finite(value)) return undefined;
  switch (op) {
    case 'lt':
      return { low: -Infinity, high: nextDown(value) };
    case 'lte':
      return { low: -Infinity, high: value };
    case 'gt':
      return { low: nextUp(value), high: Infinity };
    case 'gte':
      return { low: value, high: Infinity };
    case 'eq':
      return { low: value, high: value };
    default:
      return undefined;
  }
}
