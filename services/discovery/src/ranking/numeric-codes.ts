import type { Column } from './columns.js';
import { slotArray } from './slots.js';

/** Up to how many distinct numbers a number column is coded (default: what two bytes a row hold). */
export interface NumberCoding {
  maxCodes?: number;
}

/** Two bytes a row: 65,535 values and slot 0 for "no value". */
export const MAX_NUMBER_CODES = 0xffff;

/**
 * A number column (NaN "no value") as it is best held: coded when it has at most `maxCodes`
 * distinct values, its dictionary those numbers in ascending order, so slots keep the numbers'
 * order; else as it is. A column holding −0 stays plain: a dictionary cannot tell −0 from 0
 * (SameValueZero), and a fact must read back as it was stored.
 */
export function codeNumbers(values: Float64Array, { maxCodes = MAX_NUMBER_CODES }: NumberCoding = {}): Column {
  const distinct = new Set<number>();
  for (let row = 0; row < values.length; row++) {
    const value = values[row]!;
    if (value !== value) continue;
    if (value === 0 && 1 / value < 0) return { kind: 'number', values };
    distinct.add(value);
    if (distinct.size > maxCodes) return { kind: 'number', values };
  }
  const dictionary = Float64Array.from(distinct).sort();
  const slotOf = new Map<number, number>();
  dictionary.forEach((value, code) => slotOf.set(value, code + 1));
  const slots = slotArray(values.length, dictionary.length);
  for (let row = 0; row < values.length; row++) {
    const value = values[row]!;
    if (value === value) slots[row] = slotOf.get(value)!;
  }
  return { kind: 'coded', slots, dictionary: Array.from(dictionary) };
}

/** Whether a coded column's dictionary holds numbers (a number column coded), not strings or booleans. */
export function isNumericDictionary(dictionary: { readonly length: number; at(code: number): unknown }): boolean {
  return dictionary.length > 0 && typeof dictionary.at(0) === 'number';
}

/** A coded number column back as plain numbers (NaN "no value"). */
export function decodeNumbers(column: Extract<Column, { kind: 'coded' }>): Float64Array {
  const table = new Float64Array(column.dictionary.length + 1);
  table[0] = Number.NaN;
  column.dictionary.forEach((value, code) => (table[code + 1] = value as number));
  const values = new Float64Array(column.slots.length);
  for (let row = 0; row < values.length; row++) values[row] = table[column.slots[row]!]!;
  return values;
}
