/**
 * Inputs that cross into SQL. Path identifiers are plain strings in the contract: one that is not a
 * UUID names nothing (404, never a database error). JSON the gateway parsed may hold lone UTF-16
 * surrogates, which jsonb refuses; they become U+FFFD, as they do in text columns.
 */
import { parseJsonInput } from '@landscreen/rpc';

export { isUuid } from '@landscreen/rpc';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const wellFormed = (text: string) => text.replace(LONE_SURROGATE, '\uFFFD');

function wellFormedValue(value: unknown): unknown {
  if (typeof value === 'string') return wellFormed(value);
  if (Array.isArray(value)) return value.map(wellFormedValue);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [wellFormed(key), wellFormedValue(inner)]));
  }
  return value;
}

/**
 * JSON bytes of the request field at `loc` → JSON text jsonb accepts (or null when absent). Nesting
 * is bounded before the recursive walk below: an internal caller bypasses the gateway's bound.
 */
export function jsonbText(bytes: Uint8Array | undefined, loc: (string | number)[]): string | null {
  if (bytes === undefined || bytes.length === 0) return null;
  return JSON.stringify(wellFormedValue(parseJsonInput(bytes, loc)));
}
