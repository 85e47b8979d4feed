import type { Column } from './column-kinds.js';
import { narrowSlots, widenSlots } from './slots.js';

/**
 * Up to how many distinct numbers a number column is coded. By default a quarter of its rows, at
 * most what two bytes a row hold: slots and dictionary then take at most four bytes a row, half of
 * plain float64 (a chunk of 50,000 rows of distances, nearly all distinct, stays plain).
 */
export interface NumberCoding {
  maxCodes?: number;
}

/** The default of NumberCoding.maxCodes for a column of `rows` rows. */
export const defaultMaxCodes = (rows: number) => Math.max(0xff, Math.min(MAX_NUMBER_CODES, Math.floor(rows / 4)));

/** Two bytes a row: 65,535 values and slot 0 for "no value". */
export const MAX_NUMBER_CODES = 0xffff;

/** Open addressing over the values' bits: twice the most codes, so probes stay short. */
const TABLE_BITS = 17;
const TABLE_SIZE = 1 << TABLE_BITS;
const tableValues = new Float64Array(TABLE_SIZE);
/** Code + 1 of the value in each place of the table; 0 is an empty place. */
const tableCodes = new Int32Array(TABLE_SIZE);
const word = new Float64Array(1);
const halves = new Uint32Array(word.buffer);

/**
 * A number column (NaN "no value") as it is best held: coded when it has at most `maxCodes`
 * distinct values (NumberCoding), its dictionary those numbers in ascending order, so slots keep the numbers'
 * order; else as it is. A column holding −0 stays plain: a dictionary cannot tell −0 from 0
 * (SameValueZero), and a fact must read back as it was stored.
 *
 * The distinct values are found with a hash table over typed arrays, not a Set: a Set boxes each
 * double it is given, and coding a 200,000-parcel vintage's number columns through one took
 * seconds of allocation. Values other than NaN and ±0 are equal exactly when their bits are.
 */
export function codeNumbers(values: Float64Array, { maxCodes = defaultMaxCodes(values.length) }: NumberCoding = {}): Column {
  const limit = Math.min(maxCodes, MAX_NUMBER_CODES);
  tableCodes.fill(0);
  const dictionary: number[] = [];
  // Each row's code in order of first appearance, + 1 (0 is "no value").
  const firstCodes = new Uint16Array(values.length);
  for (let row = 0; row < values.length; row++) {
    const value = values[row]!;
    if (value !== value) continue;
    if (value === 0 && 1 / value < 0) return { kind: 'number', values };
    word[0] = value;
    let place = Math.imul(halves[0]! ^ Math.imul(halves[1]!, 0x9e3779b1), 0x85ebca6b) >>> (32 - TABLE_BITS);
    let code = tableCodes[place]!;
    while (code !== 0 && tableValues[place] !== value) {
      place = (place + 1) & (TABLE_SIZE - 1);
      code = tableCodes[place]!;
    }
    if (code === 0) {
      if (dictionary.length === limit) return { kind: 'number', values };
      dictionary.push(value);
      code = dictionary.length;
      tableValues[place] = value;
      tableCodes[place] = code;
    }
    firstCodes[row] = code;
  }
  const order = Float64Array.from(dictionary).sort();
  // Slot of each code of first appearance: its value's place in ascending order, + 1.
  const slotOfCode = new Uint32Array(dictionary.length + 1);
  const rankOf = new Map<number, number>();
  order.forEach((value, rank) => rankOf.set(value, rank + 1));
  dictionary.forEach((value, code) => (slotOfCode[code + 1] = rankOf.get(value)!));
  const wide = new Uint32Array(values.length);
  for (let row = 0; row < values.length; row++) wide[row] = slotOfCode[firstCodes[row]!]!;
  return { kind: 'coded', slots: narrowSlots(wide, order.length), dictionary: Array.from(order) };
}

/**
 * Whether a coded column's dictionary holds only numbers (a number column coded), not strings,
 * booleans or values of mixed kinds (codeScalars): only then do interval tables and number joins apply.
 */
export function isNumericDictionary(dictionary: { readonly length: number; at(code: number): unknown }): boolean {
  if (dictionary.length === 0) return false;
  for (let code = 0; code < dictionary.length; code++) if (typeof dictionary.at(code) !== 'number') return false;
  return true;
}

/**
 * A column of values of mixed kinds (undefined "no value") coded when every value is a string, a
 * number or a boolean, none is −0, and they are few (as codeNumbers): its dictionary in order of
 * first appearance. Rules over it test each distinct value with the rule's own test, as over any
 * coded column. Else the plain values.
 */
export function codeScalars(values: unknown[], { maxCodes = defaultMaxCodes(values.length) }: NumberCoding = {}): Column {
  const limit = Math.min(maxCodes, MAX_NUMBER_CODES);
  const codeOf = new Map<unknown, number>();
  const dictionary: unknown[] = [];
  const wide = new Uint32Array(values.length);
  for (let row = 0; row < values.length; row++) {
    const value = values[row];
    if (value === undefined || value === null) continue;
    const kind = typeof value;
    if (kind !== 'string' && kind !== 'number' && kind !== 'boolean') return { kind: 'mixed', values };
    if (value === 0 && 1 / (value as number) < 0) return { kind: 'mixed', values };
    if (value !== value) return { kind: 'mixed', values };
    let code = codeOf.get(value);
    if (code === undefined) {
      if (dictionary.length === limit) return { kind: 'mixed', values };
      code = dictionary.length;
      dictionary.push(value);
      codeOf.set(value, code);
    }
    wide[row] = code + 1;
  }
  if (dictionary.length === 0) return { kind: 'mixed', values };
  return { kind: 'coded', slots: narrowSlots(wide, dictionary.length), dictionary };
}

/** A coded number column back as plain numbers (NaN "no value"). */
export function decodeNumbers(column: Extract<Column, { kind: 'coded' }>): Float64Array {
  const table = new Float64Array(column.dictionary.length + 1);
  table[0] = Number.NaN;
  column.dictionary.forEach((value, code) => (table[code + 1] = value as number));
  const slots = widenSlots(column.slots);
  const values = new Float64Array(slots.length);
  for (let row = 0; row < values.length; row++) values[row] = table[slots[row]!]!;
  return values;
}

/**
 * Sorted number dictionaries as one, ascending, and each one's slots in it (slot 0 stays 0): a
 * sort and binary searches over typed arrays (a Map of doubles boxes each of them).
 */
export function mergeNumberDictionaries(dictionaries: (readonly number[] | undefined)[]): { dictionary: number[]; slotMaps: Uint32Array[] } {
  const all = new Float64Array(dictionaries.reduce((total, part) => total + (part?.length ?? 0), 0));
  let at = 0;
  for (const part of dictionaries) if (part) for (const value of part) all[at++] = value;
  all.sort();
  let unique = 0;
  for (let index = 0; index < all.length; index++) if (index === 0 || all[index] !== all[unique - 1]) all[unique++] = all[index]!;
  const merged = all.subarray(0, unique);
  const slotMaps = dictionaries.map((part) => {
    const map = new Uint32Array((part?.length ?? 0) + 1);
    part?.forEach((value, code) => {
      let low = 0;
      let high = unique - 1;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (merged[middle]! < value) low = middle + 1;
        else high = middle;
      }
      map[code + 1] = low + 1;
    });
    return map;
  });
  return { dictionary: Array.from(merged), slotMaps };
}
