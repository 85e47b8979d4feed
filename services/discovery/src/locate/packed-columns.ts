// A parcel index's keys and record fields as a restored service holds them: bytes and typed
// arrays that a worker thread made and handed over (transferred, not copied), read one value at
// a time. A million parcels' keys and record fields as JS arrays cost the thread that builds them
// seconds of parsing and a structured clone; a tile reads a few thousand keys, LocateParcels a
// handful of records.

import { Utf8Strings } from '../ranking/utf8-strings.js';

/** What a tile or LocateParcels reads of a column: arrays (Array.prototype.at) and the packed forms below. */
export interface ValueColumn<T> {
  readonly length: number;
  at(index: number): T | null | undefined;
}

/**
 * Strings packed as Utf8Strings' blob and ends after the prefix every value shares (parcel keys
 * begin with their market's slug: kept once, not once a parcel), with a flag per value that was
 * null; no flags (an empty array) when none was: a column of a million values without nulls
 * keeps no megabyte of zeros.
 */
export interface PackedStrings {
  prefix: string;
  bytes: Uint8Array;
  ends: Uint32Array;
  nulls: Uint8Array;
}

/** Packs strings (null allowed) into bytes of their own, safe to transfer to another thread. */
export function packStrings(values: ValueColumn<string>): PackedStrings {
  const prefix = sharedPrefix(values);
  let nulls = new Uint8Array(0);
  const { bytes, ends } = Utf8Strings.encode({
    length: values.length,
    at: (index) => {
      const value = values.at(index);
      if (value === null || value === undefined) {
        if (nulls.length === 0) nulls = new Uint8Array(values.length);
        nulls[index] = 1;
        return '';
      }
      return value.slice(prefix.length);
    },
  });
  return { prefix, bytes: ownedCopy(bytes), ends, nulls };
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
  private readonly strings: Utf8Strings;

  constructor(private readonly packed: PackedStrings) {
    this.strings = new Utf8Strings(Buffer.from(packed.bytes.buffer, packed.bytes.byteOffset, packed.bytes.byteLength), packed.ends);
  }

  get length(): number {
    return this.packed.ends.length;
  }

  /** The arrays it holds (memory/sizes.ts ByteCount). */
  views(): ArrayBufferView[] {
    return [...this.strings.views(), this.packed.nulls];
  }

  heldBytes(): number {
    return this.strings.heldBytes();
  }

  at(index: number): string | null | undefined {
    if (!(index >= 0 && index < this.packed.ends.length)) return undefined;
    if (this.packed.nulls.length > 0 && this.packed.nulls[index] === 1) return null;
    const prefix = this.packed.prefix;
    return prefix === '' ? this.strings.at(index) : prefix + this.strings.at(index);
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
