// The memory an object keeps in array buffers, found by walking what it references: the point
// engine's index keeps its arrays in private fields (its tree, buckets, per-feature caches, some
// on SharedArrayBuffers a worker thread made), so counting them by walking finds each one the
// engine holds today and any it holds tomorrow, where a figure per parcel went stale unnoticed.
// (TypeScript's private fields are properties; a `#private` field would not be seen.)

/** Every ArrayBuffer and SharedArrayBuffer reachable from `root` (properties, array items, Map and Set entries), each once. */
export function heldBuffers(root: unknown, found = new Set<ArrayBufferLike>()): Set<ArrayBufferLike> {
  const seen = new Set<object>();
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && value instanceof SharedArrayBuffer)) found.add(value);
    else if (ArrayBuffer.isView(value)) found.add(value.buffer);
    else if (value instanceof Map) for (const [key, item] of value) pending.push(key, item);
    else if (value instanceof Set) for (const item of value) pending.push(item);
    else if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object') pending.push(item);
    } else for (const item of Object.values(value)) pending.push(item);
  }
  return found;
}
