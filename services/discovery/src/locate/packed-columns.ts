// A parcel index's keys and record fields as a restored service holds them: bytes and typed
// arrays that a worker thread made and handed over (transferred, not copied), read one value at
// a time. A million parcels' keys and record fields as JS arrays cost the thread that builds them
// seconds of parsing and a structured clone; a tile reads a few thousand keys, LocateParcels a
// handful of records.

/** What a tile or LocateParcels reads of a column: arrays (Array.prototype.at) and the packed forms below. */
export interface ValueColumn<T> {
  readonly length: number;
  at(index: number): T | null | undefined;
}

/** Values a block of lengths holds: a value's start is its block's plus the lengths before it in the block. */
const BLOCK = 32;

/** The narrowest array holding each of `lengths`. */
export type Lengths = Uint8Array | Uint16Array | Uint32Array;

/**
 * Strings packed as one UTF-8 blob after the prefix every value shares (parcel keys begin with
 * their market's slug: kept once, not once a parcel). Each value's byte length in the narrowest
 * array that holds them (a byte for the short strings of a record) and where each block of BLOCK
 * values starts, where an end offset a value took four bytes; a flag per value that was null, no
 * flags (an empty array) when none was.
 */
export interface PackedStrings {
  prefix: string;
  bytes: Uint8Array;
  blockStarts: Uint32Array;
  lengths: Lengths;
  nulls: Uint8Array;
}

/** Packs strings (null allowed) into bytes of their own, safe to transfer to another thread. */
export function packStrings(values: ValueColumn<string>): PackedStrings {
  const size = values.length;
  const prefix = sharedPrefix(values);
  let nulls = new Uint8Array(0);
  const suffixes: string[] = new Array(size);
  const byteLengths = new Uint32Array(size);
  let longest = 0;
  for (let index = 0; index < size; index++) {
    const value = values.at(index);
    if (value === null || value === undefined) {
      if (nulls.length === 0) nulls = new Uint8Array(size);
      nulls[index] = 1;
      suffixes[index] = '';
      continue;
    }
    const suffix = value.slice(prefix.length);
    suffixes[index] = suffix;
    byteLengths[index] = Buffer.byteLength(suffix, 'utf8');
    if (byteLengths[index]! > longest) longest = byteLengths[index]!;
  }
  const lengths = longest < 0x100 ? Uint8Array.from(byteLengths) : longest < 0x10000 ? Uint16Array.from(byteLengths) : byteLengths;
  const blockStarts = new Uint32Array(Math.ceil(size / BLOCK));
  let at = 0;
  for (let index = 0; index < size; index++) {
    if (index % BLOCK === 0) blockStarts[index / BLOCK] = at;
    at += byteLengths[index]!;
  }
  return { prefix, bytes: ownedCopy(Buffer.from(suffixes.join(''), 'utf8')), blockStarts, lengths, nulls };
}

/** The longest prefix of every value that is not null, never ending inside a surrogate pair (each part is encoded apart). */
function sharedPrefix(values: ValueColumn<string>): string {
  let prefix: string | undefined;
  for (let index = 0; index < values.length && prefix !== ''; index++) {
    const value = values.at(index);
    if (value === null || value === undefined) continue;
    if (prefix === undefined) prefix = value;
    else if (!value.startsWith(prefix)) {
      let length = 0;
      while (length < prefix.length && prefix.charCodeAt(length) === value.charCodeAt(length)) length++;
      prefix = prefix.slice(0, length);
    }
  }
  if (prefix === undefined) return '';
  const last = prefix.charCodeAt(prefix.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? prefix.slice(0, -1) : prefix;
}

/** Numbers packed as a Float64Array, NaN for null (JSON has no NaN, so nothing else becomes one). */
export function packNumbers(values: ValueColumn<number>): Float64Array {
  const packed = new Float64Array(values.length);
  for (let index = 0; index < values.length; index++) packed[index] = values.at(index) ?? Number.NaN;
  return packed;
}

export class NullableStrings implements ValueColumn<string> {
  private readonly text: Buffer;

  constructor(private readonly packed: PackedStrings) {
    this.text = Buffer.from(packed.bytes.buffer, packed.bytes.byteOffset, packed.bytes.byteLength);
  }

  get length(): number {
    return this.packed.lengths.length;
  }

  /** The arrays it holds (memory/sizes.ts ByteCount). */
  views(): ArrayBufferView[] {
    const { bytes, blockStarts, lengths, nulls } = this.packed;
    return [bytes, blockStarts, lengths, nulls];
  }

  at(index: number): string | null | undefined {
    const { prefix, blockStarts, lengths, nulls } = this.packed;
    if (!(index >= 0 && index < lengths.length)) return undefined;
    if (nulls.length > 0 && nulls[index] === 1) return null;
    let start = blockStarts[Math.floor(index / BLOCK)]!;
    for (let k = index - (index % BLOCK); k < index; k++) start += lengths[k]!;
    const suffix = this.text.toString('utf8', start, start + lengths[index]!);
    return prefix === '' ? suffix : prefix + suffix;
  }
}

export class NullableNumbers implements ValueColumn<number> {
  constructor(private readonly values: Float64Array) {}

  get length(): number {
    return this.values.length;
  }

  views(): ArrayBufferView[] {
    return [this.values];
  }

  at(index: number): number | null | undefined {
    if (!(index >= 0 && index < this.values.length)) return undefined;
    const value = this.values[index]!;
    return Number.isNaN(value) ? null : value;
  }
}

/**
 * The bytes in an ArrayBuffer of their own: a small Buffer may be a slice of Node's shared pool,
 * which must never be transferred.
 */
export function ownedCopy(bytes: Uint8Array): Uint8Array {
  const owned = new Uint8Array(bytes.byteLength);
  owned.set(bytes);
  return owned;
}

/** Parts as one buffer of its own, so that typed arrays can view it at 8-byte offsets. */
export function joinParts(parts: readonly Uint8Array[]): Uint8Array {
  const total = parts.reduce((sum, part) => sum + part.byteLength, 0);
  const bytes = new Uint8Array(new ArrayBuffer(total));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.byteLength;
  }
  return bytes;
}
