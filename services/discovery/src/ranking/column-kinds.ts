import type { Slots } from './slots.js';

/**
 * One fact of every parcel of a vintage, stored by column. Numbers live in a Float64Array (NaN is
 * "no value"); strings and booleans are dictionary-encoded, so a rule is decided once per distinct
 * value instead of once per parcel. A number column with few distinct values is coded too, its
 * dictionary the numbers in ascending order (numeric-codes.ts): a byte or two a row instead of
 * eight. Values of mixed kinds are coded too when all are scalars and few (numeric-codes.ts), else
 * fall back to a plain array.
 */
export type Column =
  | { kind: 'number'; values: Float64Array }
  | { kind: 'coded'; slots: Slots; dictionary: Dictionary }
  | { kind: 'mixed'; values: unknown[] };

/** A coded column's distinct values by code: an array, or strings decoded when asked (utf8-strings.ts). */
export interface Dictionary {
  readonly length: number;
  at(code: number): unknown;
  forEach(each: (value: unknown, code: number) => void): void;
}
