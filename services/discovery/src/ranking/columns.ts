/**
 * One fact of every parcel of a vintage, stored by column. Numbers live in a Float64Array (NaN is
 * "no value"); strings and booleans are dictionary-encoded (code −1 is "no value"), so a rule is
 * decided once per distinct value instead of once per parcel. Values of mixed kinds fall back to
 * a plain array.
 */
export type Column =
  | { kind: 'number'; values: Float64Array }
  | { kind: 'coded'; codes: Int32Array; dictionary: unknown[] }
  | { kind: 'mixed'; values: unknown[] };

const MISSING = -1;

/** Accumulates one field's values row by row while a vintage loads. */
export class ColumnBuilder {
  private kind: 'number' | 'coded' | 'mixed' | undefined;
  private numbers: Float64Array;
  private codes: Int32Array;
  private readonly dictionary: unknown[] = [];
  private readonly codeOf = new Map<unknown, number>();
  private mixed: unknown[] | undefined;

  constructor(private readonly size: number) {
    this.numbers = new Float64Array(0);
    this.codes = new Int32Array(0);
  }

  set(row: number, value: unknown): void {
    if (value === null || value === undefined) return;
    if (this.kind === undefined) {
      this.start(typeof value === 'number' ? 'number' : typeof value === 'string' || typeof value === 'boolean' ? 'coded' : 'mixed');
    }
    if (this.kind === 'number' && typeof value === 'number') {
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
      this.codes[row] = code;
      return;
    }
    this.toMixed()[row] = value;
  }

  build(): Column {
    if (this.kind === 'number') return { kind: 'number', values: this.numbers };
    if (this.kind === 'coded') return { kind: 'coded', codes: this.codes, dictionary: this.dictionary };
    return { kind: 'mixed', values: this.mixed ?? new Array(this.size).fill(undefined) };
  }

  private start(kind: 'number' | 'coded' | 'mixed'): void {
    this.kind = kind;
    if (kind === 'number') this.numbers = new Float64Array(this.size).fill(Number.NaN);
    else if (kind === 'coded') this.codes = new Int32Array(this.size).fill(MISSING);
    else this.mixed = new Array(this.size).fill(undefined);
  }

  /** Rewrites what was stored so far as plain values: a field whose kinds disagree. */
  private toMixed(): unknown[] {
    if (this.kind === 'mixed') return this.mixed!;
    const values: unknown[] = new Array(this.size).fill(undefined);
    if (this.kind === 'number') this.numbers.forEach((value, row) => (values[row] = Number.isNaN(value) ? undefined : value));
    if (this.kind === 'coded') this.codes.forEach((code, row) => (values[row] = code === MISSING ? undefined : this.dictionary[code]));
    this.kind = 'mixed';
    this.mixed = values;
    return values;
  }
}

/** The value a column holds for a row, exactly as the import stored it (null when none). */
export function valueAt(column: Column | undefined, row: number): unknown {
  if (!column) return null;
  if (column.kind === 'number') {
    const value = column.values[row]!;
    return Number.isNaN(value) ? null : value;
  }
  if (column.kind === 'coded') {
    const code = column.codes[row]!;
    return code === MISSING ? null : column.dictionary[code];
  }
  return column.values[row] ?? null;
}
