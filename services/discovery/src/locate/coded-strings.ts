// A record field whose values repeat (a zoning code, an owner with many parcels) kept as one
// code per parcel into a dictionary of its distinct values, where packing every value (its bytes
// and its length) would keep each repeat again; a field of mostly distinct values
// (APNs, addresses) stays packed. Either is read one value at a time.

import { slotArray, type Slots } from '../ranking/slots.js';
import { NullableStrings, packStrings, type PackedStrings, type ValueColumn } from './packed-columns.js';

/** Codes by parcel: 0 for null, k for the dictionary's value k - 1 (the ranking columns' slots). */
export type Codes = Slots;

export type PackedStringColumn = ({ form: 'packed' } & PackedStrings) | { form: 'coded'; dictionary: PackedStrings; codes: Codes };

/**
 * Distinct values past this share of the parcels: the column is not coded (codes and dictionary
 * would save little), and counting stops, so a column of unique values never fills a map.
 */
const MAX_DISTINCT_SHARE = 1 / 4;

/** The column coded when that holds it in fewer bytes than packing every value, else packed. */
export function packStringColumn(values: ValueColumn<string>): PackedStringColumn {
  const coded = codedColumn(values);
  if (coded) return coded;
  return { form: 'packed', ...packStrings(values) };
}

function codedColumn(values: ValueColumn<string>): PackedStringColumn | null {
  const size = values.length;
  const limit = Math.floor(size * MAX_DISTINCT_SHARE);
  const codeOf = new Map<string, number>();
  const distinct: string[] = [];
  let packedBytes = 0;
  for (let index = 0; index < size; index++) {
    const value = values.at(index);
    if (value === null || value === undefined) continue;
    packedBytes += Buffer.byteLength(value, 'utf8');
    if (codeOf.has(value)) continue;
    if (distinct.length === limit) return null;
    distinct.push(value);
    codeOf.set(value, distinct.length);
  }
  const dictionary = packStrings(distinct);
  const codes = slotArray(size, distinct.length);
  const codedBytes = codes.byteLength + columnViews({ form: 'packed', ...dictionary }).reduce((sum, view) => sum + view.byteLength, 0);
  // Packed: the values' bytes, at least a byte of length each and a block start every 32.
  if (codedBytes >= packedBytes + size * 1.125) return null;
  for (let index = 0; index < size; index++) {
    const value = values.at(index);
    codes[index] = value === null || value === undefined ? 0 : codeOf.get(value)!;
  }
  return { form: 'coded', dictionary, codes };
}

/** A coded column read one value at a time. */
export class CodedStrings implements ValueColumn<string> {
  private readonly dictionary: NullableStrings;

  constructor(
    dictionary: PackedStrings,
    private readonly codes: Codes,
  ) {
    this.dictionary = new NullableStrings(dictionary);
  }

  get length(): number {
    return this.codes.length;
  }

  /** The arrays it holds (memory/sizes.ts ByteCount). */
  views(): ArrayBufferView[] {
    return [...this.dictionary.views(), this.codes];
  }

  at(index: number): string | null | undefined {
    if (!(index >= 0 && index < this.codes.length)) return undefined;
    const code = this.codes[index]!;
    return code === 0 ? null : this.dictionary.at(code - 1);
  }
}

/** The column as a service reads it. */
export function stringColumn(column: PackedStringColumn): ValueColumn<string> & { views(): ArrayBufferView[] } {
  return column.form === 'coded' ? new CodedStrings(column.dictionary, column.codes) : new NullableStrings(column);
}

/** The arrays the column holds, to transfer. */
export function columnViews(column: PackedStringColumn): ArrayBufferView[] {
  const packedViews = ({ bytes, blockStarts, lengths, nulls }: PackedStrings) => [bytes, blockStarts, lengths, nulls];
  return column.form === 'coded' ? [...packedViews(column.dictionary), column.codes] : packedViews(column);
}
