import { ByteCount } from '../memory/sizes.js';
import { valueAt, type Column, type Dictionary } from './columns.js';
import { UnusableIndexFile, type ColumnSource } from './column-source.js';
import { indexReloading } from './index-reloading.js';

/** Use order across every index of the process: the least recently used part is dropped first. */
let clock = 0;

/** A part of an index that can be dropped and read again: a column, or a coded column's dictionary alone. */
export interface Evictable {
  field: string;
  part: 'column' | 'dictionary';
  bytes: number;
  lastUse: number;
}

/** Looks up a column by field; undefined for a field the vintage does not have. */
export type ColumnLookup = (field: string) => Column | undefined;
/** A row's value of a field, as valueAt (columns.ts) gives it; null for a field the vintage does not have. */
export type RowValues = (field: string, row: number) => unknown;

/**
 * The columns of one vintage index that are in memory. Without a source (an index built or read
 * from the database) every column is, always. With one (a local index file) a column is read when
 * a ranking first needs it and may be dropped again (evict) when the replica's memory is short;
 * a caller holds what it looked up for as long as it uses it, so a drop never pulls a column from
 * under a ranking. The rows of a page are read from the source without making columns resident.
 */
export class ResidentColumns {
  private readonly columns = new Map<string, { column: Column; bytes: number; lastUse: number }>();
  private readonly dictionaries = new Map<string, { dictionary: Dictionary | undefined; bytes: number; lastUse: number }>();
  private readonly loadingColumns = new Map<string, Promise<Column>>();
  private readonly loadingDictionaries = new Map<string, Promise<Dictionary | undefined>>();
  private readonly names: string[];
  private readonly known: ReadonlySet<string>;
  /** Told whenever a column or dictionary became resident (the memory budget recounts). */
  onChange: (() => void) | undefined;
  /** Told when the source proved damaged (the index is then dropped, and read again from the database). */
  onDamaged: (() => void) | undefined;

  constructor(
    initial: Map<string, Column>,
    private readonly source?: ColumnSource,
  ) {
    this.names = source ? source.fields() : [...initial.keys()];
    this.known = new Set(this.names);
    for (const [field, column] of initial) this.columns.set(field, { column, bytes: 0, lastUse: 0 });
  }

  /** Every field of the vintage, in stored order. */
  fields(): readonly string[] {
    return this.names;
  }

  has(field: string): boolean {
    return this.known.has(field);
  }

  isResident(field: string): boolean {
    return this.columns.has(field);
  }

  /** Fields whose columns are in memory, in stored order. */
  residentFields(): string[] {
    return this.names.filter((field) => this.columns.has(field));
  }

  /** A resident column; a field the vintage has but that is not resident is a caller's bug (lookup first). */
  get(field: string): Column | undefined {
    const held = this.columns.get(field);
    if (held) {
      held.lastUse = ++clock;
      return held.column;
    }
    if (this.known.has(field)) throw new Error(`column ${field} is not resident: look it up first (columnsFor)`);
    return undefined;
  }

  /** Every column in stored order (for storing the index): all must be resident. */
  *entries(): IterableIterator<[string, Column]> {
    for (const field of this.names) yield [field, this.get(field)!];
  }

  /** The columns of `fields`, read first where not resident, held for the caller. */
  async lookup(fields: Iterable<string>): Promise<ColumnLookup> {
    const found = new Map<string, Column>();
    const loads: Promise<void>[] = [];
    for (const field of new Set(fields)) {
      if (!this.known.has(field)) continue;
      const held = this.columns.get(field);
      if (held) {
        held.lastUse = ++clock;
        found.set(field, held.column);
      } else loads.push(this.loadColumn(field).then((column) => void found.set(field, column)));
    }
    await Promise.all(loads);
    return (field) => found.get(field);
  }

  /**
   * Every field's values of these rows: from resident columns, and for the others from the
   * source's row records (their dictionaries made resident: they are small beside the columns;
   * a column of mixed values has no records and is made resident).
   */
  async rowValues(rows: readonly number[]): Promise<RowValues> {
    const held = new Map<string, Column>();
    for (const [field, { column }] of this.columns) held.set(field, column);
    const missing = this.names.filter((field) => !held.has(field));
    if (!this.source || missing.length === 0 || rows.length === 0) return (field, row) => valueAt(held.get(field), row);
    const source = this.source;
    const inRecords = new Set(missing.filter((field) => source.inRecords(field)));
    const dictionaries = new Map<string, Dictionary | undefined>();
    const [others, reader] = await Promise.all([
      this.lookup(missing.filter((field) => !inRecords.has(field))),
      this.fromSource(source.rows(rows)),
      ...[...inRecords].map((field) => this.dictionaryOf(field).then((dictionary) => void dictionaries.set(field, dictionary))),
    ]);
    return (field, row) => {
      const column = held.get(field) ?? others(field);
      if (column) return valueAt(column, row);
      return inRecords.has(field) ? reader(field, row, dictionaries.get(field)) : null;
    };
  }

  /** What could be dropped now (nothing without a source): columns, and dictionaries whose column is not resident. */
  evictable(): Evictable[] {
    if (!this.source) return [];
    const parts: Evictable[] = [];
    for (const [field, { bytes, lastUse }] of this.columns) parts.push({ field, part: 'column', bytes, lastUse });
    for (const [field, { bytes, lastUse }] of this.dictionaries) if (!this.columns.has(field)) parts.push({ field, part: 'dictionary', bytes, lastUse });
    return parts;
  }

  evict({ field, part }: Pick<Evictable, 'field' | 'part'>): void {
    if (!this.source) return;
    if (part === 'column') this.columns.delete(field);
    else if (!this.columns.has(field)) this.dictionaries.delete(field);
  }

  /** The columns and lone dictionaries held (memory/index-sizes.ts counts them). */
  held(): { columns: Column[]; dictionaries: Dictionary[] } {
    const columns = [...this.columns.values()].map((held) => held.column);
    const dictionaries: Dictionary[] = [];
    for (const [field, { dictionary }] of this.dictionaries) if (dictionary && !this.columns.has(field)) dictionaries.push(dictionary);
    return { columns, dictionaries };
  }

  private fromSource<T>(reading: Promise<T>): Promise<T> {
    return reading.catch((error: unknown) => {
      if (!(error instanceof UnusableIndexFile)) throw error;
      this.onDamaged?.();
      throw indexReloading();
    });
  }

  private loadColumn(field: string): Promise<Column> {
    let loading = this.loadingColumns.get(field);
    if (loading) return loading;
    loading = this.fromSource(this.source!.column(field, (of) => this.dictionaryOf(of)))
      .then((column) => {
        const dictionary = this.dictionaries.get(field);
        const lastUse = ++clock;
        if (dictionary) dictionary.lastUse = lastUse;
        this.columns.set(field, { column, bytes: dataBytes(column), lastUse });
        this.onChange?.();
        return column;
      })
      .finally(() => this.loadingColumns.delete(field));
    this.loadingColumns.set(field, loading);
    return loading;
  }

  private dictionaryOf(field: string): Promise<Dictionary | undefined> {
    const held = this.dictionaries.get(field);
    if (held) {
      held.lastUse = ++clock;
      return Promise.resolve(held.dictionary);
    }
    let loading = this.loadingDictionaries.get(field);
    if (loading) return loading;
    loading = this.fromSource(this.source!.dictionary(field))
      .then((dictionary) => {
        this.dictionaries.set(field, { dictionary, bytes: dictionary ? new ByteCount().list(dictionary).total() : 0, lastUse: ++clock });
        this.onChange?.();
        return dictionary;
      })
      .finally(() => this.loadingDictionaries.delete(field));
    this.loadingDictionaries.set(field, loading);
    return loading;
  }
}

/** A column's own bytes, its dictionary aside (that is a part of its own). */
function dataBytes(column: Column): number {
  if (column.kind === 'number') return column.values.byteLength;
  if (column.kind === 'coded') return column.slots.byteLength;
  return new ByteCount().list(column.values).total();
}
