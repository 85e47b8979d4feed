// What the in-memory structures of a vintage take, approximately: typed arrays by their length,
// JavaScript values by what V8 gives them on a 64-bit machine with pointer compression off (the
// Node default). The figures steer eviction (index-memory.ts); `npm run bench:placement` prints
// them beside the heap a loaded market really took.

/** A slot of a JavaScript array or a property of an object. */
const SLOT = 8;
/** A string's header (map, hash, length), before its characters. */
const STRING_HEADER = 16;
/** A boxed number (a double that is not a small integer). */
const HEAP_NUMBER = 16;
/** Values a list's average size is judged on. */
const SAMPLE = 1_024;

interface ListLike {
  readonly length: number;
  at(index: number): unknown;
}

/** A value as V8 holds it, outside the slot that points at it. */
export function valueBytes(value: unknown): number {
  if (typeof value === 'string') return STRING_HEADER + Math.ceil(value.length / 8) * 8;
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) < 2 ** 31 ? 0 : HEAP_NUMBER;
  if (value === null || value === undefined || typeof value === 'boolean') return 0;
  if (Array.isArray(value)) return 32 + value.reduce((sum: number, item) => sum + SLOT + valueBytes(item), 0);
  if (typeof value === 'object') return 32 + Object.values(value as object).reduce((sum: number, item) => sum + SLOT + valueBytes(item), 0);
  return SLOT;
}

/** A list of values (an array or a decoded dictionary), from an evenly spread sample of its items. */
export function listBytes(list: ListLike): number {
  const length = list.length;
  if (length === 0) return 0;
  const step = Math.max(1, Math.floor(length / SAMPLE));
  let sampled = 0;
  let bytes = 0;
  for (let index = 0; index < length; index += step) {
    bytes += valueBytes(list.at(index));
    sampled++;
  }
  return Math.round(length * (SLOT + bytes / sampled));
}

/**
 * Bytes of a structure, adding up what it keeps alive: typed arrays by their buffers (a view of
 * part of a larger buffer — a decoded blob, a file read whole — keeps all of it, and views of one
 * buffer count it once), values by what V8 gives them.
 */
export class ByteCount {
  private readonly heldBuffers = new Set<ArrayBufferLike>();
  private other = 0;

  views(...arrays: (ArrayBufferView | undefined)[]): this {
    for (const array of arrays) if (array) this.heldBuffers.add(array.buffer);
    return this;
  }

  /** A list of values: one that knows its own buffers or size says so, an array is sampled. */
  list(list: ListLike & { views?: () => ArrayBufferView[]; heldBytes?: () => number }): this {
    if (typeof list.views === 'function') {
      this.views(...list.views());
      this.other += list.heldBytes?.() ?? 0;
    } else this.other += listBytes(list);
    return this;
  }

  /** Buffers themselves (ArrayBuffer or SharedArrayBuffer), each counted once with the views' buffers. */
  buffers(buffers: Iterable<ArrayBufferLike>): this {
    for (const buffer of buffers) this.heldBuffers.add(buffer);
    return this;
  }

  bytes(count: number): this {
    this.other += count;
    return this;
  }

  total(): number {
    let bytes = this.other;
    for (const buffer of this.heldBuffers) bytes += buffer.byteLength;
    return bytes;
  }
}
