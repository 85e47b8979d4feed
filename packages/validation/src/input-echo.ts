// The `input` a D1 item echoes is the caller's own value, and pydantic echoes it whole. A body of
// millions of items (or one huge string) echoed whole would make the error larger than the request
// and cost the server its time to write, so a value whose JSON would exceed ECHO_LIMIT_BYTES is
// summarised instead. Anything smaller, which is every value the spec's own limits allow in one
// field, is echoed exactly as sent (docs/decisions.md, "Echoed input is capped").

/** Echoed unchanged up to this size of (estimated) JSON text. */
export const ECHO_LIMIT_BYTES = 64 * 1024;

/** What a summary keeps: the head of each string, list and object, and a few levels. */
export const ECHO_SUMMARY = Object.freeze({
  stringChars: 256,
  items: 10,
  depth: 4,
  /** Characters of kept text across the whole summary. */
  budget: 8 * 1024,
});

const ELLIPSIS = '…';

/** The input as a D1 item may echo it: itself when small, else a bounded summary. */
export function echoInput(value: unknown): unknown {
  return fitsInJson(value, ECHO_LIMIT_BYTES) ? value : summarise(value, 0, { left: ECHO_SUMMARY.budget });
}

/**
 * Whether the JSON text of `value` would be at most `limit` characters, estimated without writing
 * it and without recursion (the walk stops as soon as the limit is passed, so its cost is bounded
 * by the limit, whatever the size or depth of the value).
 */
export function fitsInJson(value: unknown, limit: number): boolean {
  let size = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') size += item.length + 2;
    else if (Array.isArray(item)) {
      size += 2 + item.length;
      if (size > limit) return false;
      for (let index = item.length - 1; index >= 0; index--) pending.push(item[index]);
    } else if (item !== null && typeof item === 'object') {
      const keys = Object.keys(item);
      size += 2 + keys.length;
      if (size > limit) return false;
      for (const key of keys) {
        size += key.length + 3;
        pending.push((item as Record<string, unknown>)[key]);
      }
    } else size += String(item).length;
    if (size > limit) return false;
  }
  return true;
}

function summarise(value: unknown, depth: number, budget: { left: number }): unknown {
  if (typeof value === 'string') {
    const keep = Math.max(0, Math.min(ECHO_SUMMARY.stringChars, budget.left));
    budget.left -= Math.min(value.length, keep);
    return value.length > keep ? value.slice(0, keep) + ELLIPSIS : value;
  }
  if (value === null || typeof value !== 'object') {
    budget.left -= String(value).length;
    return value;
  }
  // Only the kept head is visited: a list of millions costs no more than a list of ten.
  const keys: readonly string[] | undefined = Array.isArray(value) ? undefined : Object.keys(value);
  const count = keys ? keys.length : (value as unknown[]).length;
  const at = (index: number) => (keys ? (value as Record<string, unknown>)[keys[index]!] : (value as unknown[])[index]);
  if (depth >= ECHO_SUMMARY.depth) return keys ? { [ELLIPSIS]: `${count} keys` } : [`${ELLIPSIS} ${count} items`];
  const kept: unknown[] = [];
  while (kept.length < Math.min(count, ECHO_SUMMARY.items) && budget.left > 0) {
    const index = kept.length;
    if (keys) budget.left -= keys[index]!.length;
    kept.push(summarise(at(index), depth + 1, budget));
  }
  const rest = count - kept.length;
  if (!keys) return rest > 0 ? [...kept, `${ELLIPSIS} ${rest} more items`] : kept;
  const object: Record<string, unknown> = {};
  // defineProperty: a "__proto__" key stays data (see own.ts).
  kept.forEach((item, index) => Object.defineProperty(object, keys[index]!, { value: item, enumerable: true, writable: true, configurable: true }));
  if (rest > 0) object[ELLIPSIS] = `${rest} more keys`;
  return object;
}
