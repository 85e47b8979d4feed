import { listBytes } from '../memory/sizes.js';

/**
 * A list of strings kept as one UTF-8 blob and the byte offset where each ends, decoded one at a
 * time when asked (or all at once, the first time all are walked). An index read from a local file
 * keeps its parcel keys and string dictionaries so: decoding the million keys and APNs of a
 * million-parcel vintage was most of reading it, and a page asks for 50 of them.
 */
export class Utf8Strings {
  private decoded: string[] | undefined;

  constructor(
    private readonly bytes: Buffer,
    private readonly ends: Uint32Array,
  ) {}

  get length(): number {
    return this.ends.length;
  }

  at(index: number): string | undefined {
    if (!(index >= 0 && index < this.ends.length)) return undefined;
    return this.decoded?.[index] ?? this.bytes.toString('utf8', index === 0 ? 0 : this.ends[index - 1]!, this.ends[index]!);
  }

  /** The arrays it holds (memory/sizes.ts ByteCount). */
  views(): ArrayBufferView[] {
    return [this.bytes, this.ends];
  }

  /** Bytes held beside those arrays: the strings once they were all decoded. */
  heldBytes(): number {
    return this.decoded ? listBytes(this.decoded) : 0;
  }

  /** Every string in order; decodes them all once (a rule over the column reads each). */
  forEach(each: (value: string, index: number) => void): void {
    this.decoded ??= Array.from({ length: this.ends.length }, (_, index) => this.at(index)!);
    this.decoded.forEach((value, index) => each(value, index));
  }

  /** The blob and offsets of strings, for writing. */
  static encode(strings: { readonly length: number; at(index: number): unknown }): { bytes: Buffer; ends: Uint32Array } {
    const ends = new Uint32Array(strings.length);
    const parts: string[] = [];
    let end = 0;
    for (let index = 0; index < strings.length; index++) {
      const value = strings.at(index) as string;
      parts.push(value);
      end += Buffer.byteLength(value, 'utf8');
      ends[index] = end;
    }
    return { bytes: Buffer.from(parts.join(''), 'utf8'), ends };
  }
}
