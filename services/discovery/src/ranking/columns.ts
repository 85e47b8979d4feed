import type { Column, Dictionary } from './column-kinds.js';
import { codeNumbers, codeScalars, type NumberCoding } from './numeric-codes.js';
import { slotsOfCodes, type Slots } from './slots.js';

export type { Column, Dictionary } from './column-kinds.js';
export type { Slots } from './slots.js';

const MISSING = -1;

/** Accumulates one field's values row by row (the row count need not be known in advance). */
export class ColumnBuilder {
  private kind: 'number' | 'coded' | 'mixed' | undefined;
  private numbers = new Float64Array(0);
  private codes = new Int32Array(0);
  private readonly dictionary: unknown[] = [];
  private readonly codeOf = new Map<unknown, number>();
  private mixed: unknown[] | undefined;

  set(row: number, value: unknown): void {
    if (value === null || value === undefined) return;
    if (this.kind === undefined) {
      this.kind = typeof value === 'number' ? 'number' : typeof value === 'string' || typeof value === 'boolean' ? 'coded' : 'mixed';
      if (this.kind === 'mixed') this.mixed = [];
    }
    if (this.kind === 'number' && typeof value === 'number') {
      if (row >= this.numbers.length) this.numbers = grow(this.numbers, row, Number.NaN);
      this.numbers[row] = value;
      return;
    }
    if (this.kind === 'coded' && (typeof value === 'string' || typeof value === 'boolean')) {
      let code = this.codeOf.get(value);
      if (code === undefined) {
        code = this.dictionary.length;
        this.dictionary.push(value);
        this.codeOf.set(value, code);
      }
      if (row >= this.codes.length) this.codes = grow(this.codes, row, MISSING);
      this.codes[row] = code;
      return;
    }
    this.toMixed()[row] = value;
  }

  /** The column for `size` rows (rows never set are "no value"). */
  build(size: number, options: NumberCoding = {}): Column {
    if (this.kind === 'number') return codeNumbers(fit(this.numbers, size, Number.NaN), options);
    if (this.kind === 'coded') return { kind: 'coded', slots: slotsOfCodes(fit(this.codes, size, MISSING), this.dictionary.length), dictionary: this.dictionary };
    const values = this.mixed ?? [];
    values.length = size;
    return codeScalars(values, options);
  }

  /** Rewrites what was stored so far as plain values: a field whose kinds disagree. */
  private toMixed(): unknown[] {
    if (this.kind === 'mixed') return this.mixed!;
    const values: unknown[] = [];
    if (this.kind === 'number') this.numbers.forEach((value, row) => (values[row] = Number.isNaN(value) ? undefined : value));
    if (this.kind === 'coded') this.codes.forEach((code, row) => (values[row] = code === MISSING ? undefined : this.dictionary[code]));
    this.kind = 'mixed';
    this.mixed = values;
    return values;
  }
}

function grow<T extends Float64Array | Int32Array>(array: T, row: number, fill: number): T {
  let length = Math.max(1024, array.length * 2);
  while (length <= row) length *= 2;
  const larger = new (array.constructor as new (length: number) => T)(length);
  larger.fill(fill);
  larger.set(array);
  return larger;
}

function fit<T extends Float64Array | Int32Array>(array: T, size: number, fill: number): T {
  if (array.length === size) return array;
  const fitted = new (array.constructor as new (length: number) => T)(size);
  fitted.fill(fill);
  fitted.set(array.subarray(0, Math.min(size, array.length)));
  return fitted;
}

/** The value a column holds for a row, exactly as the import stored it (null when none). */
export function valueAt(column: Column | undefined, row: number): unknown {
  if (!column) return null;
  if (column.kind === 'number') {
    const value = column.values[row]!;
    return Number.isNaN(value) ? null : value;
  }
  if (column.kind === 'coded') {
    const slot = column.slots[row];
    return slot === undefined || slot === 0 ? null : column.dictionary.at(slot - 1);
  }
  return column.values[row] ?? null;
}
