import { ColumnBuilder, type Column } from './columns.js';
import type { ColumnSource } from './column-source.js';
import type { NumberCoding } from './numeric-codes.js';
import type { ParcelKeys } from './parcel-keys.js';
import { ResidentColumns, type ColumnLookup, type RowValues } from './resident-columns.js';

/**
 * Everything ranking needs of one vintage, in memory, by column. Built while the vintage is
 * imported and stored with it (column-store.ts), so a service loads a million parcels' facts as
 * a few dozen binary columns instead of parsing a million JSON documents; vintages are immutable,
 * so it never goes stale. Geometry and the other display fields stay in the database and are
 * fetched only for the rows of a page. Read from a local index file, only the keys and their order
 * are in memory at first: a ranking looks up the columns its spec reads (columnsFor), a page reads
 * its rows' facts (rowValues), and the columns come and go (resident-columns.ts).
 */
export class VintageIndex {
  /** Which columns are in memory, and reading the others. */
  readonly resident: ResidentColumns;

  /** Made by VintageIndexBuilder, or from stored columns (column-store.ts loadVintageIndex), or a local file. */
  constructor(
    readonly vintageId: string,
    readonly size: number,
    /** parcel_key of each row. */
    readonly keys: ParcelKeys,
    /** Position of each row's parcel_key in ascending order: the tie-break as an integer. */
    readonly keyRank: Uint32Array,
    /** Row numbers in ascending parcel_key order (for finding a cursor's key). */
    readonly rowsByKey: Uint32Array,
    columns: Map<string, Column>,
    source?: ColumnSource,
  ) {
    this.resident = new ResidentColumns(columns, source);
  }

  /** A resident column (undefined: the vintage has no such field); see columnsFor. */
  column(field: string): Column | undefined {
    return this.resident.get(field);
  }

  /** The columns of these fields, read first where they are not resident. */
  columnsFor(fields: Iterable<string>): Promise<ColumnLookup> {
    return this.resident.lookup(fields);
  }

  /** Every field's value for these rows (a page's), without making every column resident. */
  rowValues(rows: readonly number[]): Promise<RowValues> {
    return this.resident.rowValues(rows);
  }

  /** Every field of the vintage. */
  fields(): readonly string[] {
    return this.resident.fields();
  }

  /** Every column by field name (for storing the index): every one must be resident. */
  entries(): IterableIterator<[string, Column]> {
    return this.resident.entries();
  }

  /** The rank a parcel_key has, or would have, in ascending key order (binary search). */
  rankOfKey(key: string): number {
    let low = 0;
    let high = this.size;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.keys.at(this.rowsByKey[middle]!)! < key) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The row holding a parcel_key, or undefined. */
  rowOfKey(key: string): number | undefined {
    const rank = this.rankOfKey(key);
    const row = this.rowsByKey[rank];
    return row !== undefined && this.keys.at(row) === key ? row : undefined;
  }
}

/** Collects a vintage's parcels, row by row, into a VintageIndex. */
export class VintageIndexBuilder {
  private readonly keys: string[] = [];
  private readonly builders = new Map<string, ColumnBuilder>();

  constructor(
    private readonly vintageId: string,
    private readonly coding: NumberCoding = {},
  ) {}

  /** Adds a parcel with its facts (typed, free and derived, merged in that order: D13). */
  add(parcelKey: string, ...factSets: (Record<string, unknown> | ReadonlyMap<string, unknown>)[]): void {
    const row = this.keys.length;
    this.keys.push(parcelKey);
    for (const facts of factSets) {
      if (facts instanceof Map) for (const [field, value] of facts) this.set(row, field, value);
      else for (const field in facts) this.set(row, field, (facts as Record<string, unknown>)[field]);
    }
  }

  /** Rows added so far. */
  get size(): number {
    return this.keys.length;
  }

  /** Sets one fact of a row already added: facts handed over as columns rather than per parcel. */
  setFact(row: number, field: string, value: unknown): void {
    this.set(row, field, value);
  }

  private set(row: number, field: string, value: unknown): void {
    let column = this.builders.get(field);
    if (!column) this.builders.set(field, (column = new ColumnBuilder()));
    column.set(row, value);
  }

  build(): VintageIndex {
    const columns = new Map<string, Column>();
    for (const [field, builder] of this.builders) columns.set(field, builder.build(this.keys.length, this.coding));
    return assembleIndex(this.vintageId, this.keys, columns);
  }
}

/**
 * An index from parts already proven whole (a checksummed local file written from a loaded index):
 * the key order is taken as it is, which spares checking a million keys' order again.
 */
export function restoreIndex(vintageId: string, keys: ParcelKeys, rowsByKey: Uint32Array, columns: Map<string, Column>, source?: ColumnSource): VintageIndex {
  return new VintageIndex(vintageId, keys.length, keys, rankOf(rowsByKey), rowsByKey, columns, source);
}

/** An index from its keys and columns; a stored key order is used when it proves to be one. */
export function assembleIndex(vintageId: string, keys: string[], columns: Map<string, Column>, storedOrder?: Uint32Array): VintageIndex {
  const count = keys.length;
  const rowsByKey = storedOrder && isKeyOrder(keys, storedOrder) ? storedOrder : keyOrder(keys);
  return new VintageIndex(vintageId, count, keys, rankOf(rowsByKey), rowsByKey, columns);
}

function rankOf(rowsByKey: Uint32Array): Uint32Array {
  const keyRank = new Uint32Array(rowsByKey.length);
  for (let rank = 0; rank < rowsByKey.length; rank++) keyRank[rowsByKey[rank]!] = rank;
  return keyRank;
}

/** Rows in D15's tie order: parcel_key ascending by code unit (as PostgreSQL's "C" collation). */
function keyOrder(keys: string[]): Uint32Array {
  const rowsByKey = new Uint32Array(keys.length);
  for (let index = 0; index < keys.length; index++) rowsByKey[index] = index;
  return rowsByKey.sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : 0));
}

/**
 * Whether `order` lists every row once in ascending parcel_key order: strictly ascending keys over
 * all `keys.length` entries can only be that. One pass, against the sort it spares.
 */
function isKeyOrder(keys: string[], order: Uint32Array): boolean {
  if (order.length !== keys.length) return false;
  for (let rank = 1; rank < order.length; rank++) if (!(keys[order[rank - 1]!]! < keys[order[rank]!]!)) return false;
  return order.length === 0 || keys[order[0]!] !== undefined;
}
