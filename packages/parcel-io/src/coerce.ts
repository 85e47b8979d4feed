// Conversions of a property value to the type its fact needs. GeoJSON gives real numbers and
// booleans, CSV gives strings; both must land as the same fact. null means "not given";
// a value that cannot be converted throws CoercionError, which the mapper turns into a row error.

export class CoercionError extends Error {
  override readonly name = 'CoercionError';
}

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
/** "1,234,567.89": assessor exports format money and areas with thousands separators. */
const GROUPED = /^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;

/** null/undefined and blank strings mean "not given". */
export function isBlank(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

export function toNumber(value: unknown): number | null {
  if (isBlank(value)) return null;
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
  } else if (typeof value === 'string') {
    const text = value.trim();
    if (DECIMAL.test(text)) return Number(text);
    if (GROUPED.test(text)) return Number(text.replaceAll(',', ''));
  }
  throw new CoercionError(`expected a number, got ${preview(value)}`);
}

export function toInteger(value: unknown): number | null {
  const n = toNumber(value);
  if (n !== null && !Number.isSafeInteger(n)) throw new CoercionError(`expected an integer, got ${preview(value)}`);
  return n;
}

const TRUE = new Set(['true', 't', 'yes', 'y', '1']);
const FALSE = new Set(['false', 'f', 'no', 'n', '0']);

/** true/false, 1/0, yes/no (any case; also t/f and y/n, as PostgreSQL writes booleans). */
export function toBoolean(value: unknown): boolean | null {
  if (isBlank(value)) return null;
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (TRUE.has(text)) return true;
    if (FALSE.has(text)) return false;
  }
  throw new CoercionError(`expected a boolean (true/false, 1/0, yes/no), got ${preview(value)}`);
}

/** Trimmed text; numbers and booleans are written out (zoning "10" may arrive as 10). */
export function toText(value: unknown): string | null {
  if (isBlank(value)) return null;
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  throw new CoercionError(`expected text, got ${preview(value)}`);
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
