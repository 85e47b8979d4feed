import { sql, type Kysely } from 'kysely';
import { ColumnBuilder, type Column } from './columns.js';

const PAGE = 20_000;

/**
 * Everything ranking needs of one vintage, in memory, by column: built once per immutable vintage
 * and shared by every query on it. A 1,000,000-parcel vintage with ~40 facts takes a few hundred
 * megabytes; geometry and the other display fields stay in the database and are fetched only for
 * the rows of a page.
 */
export class VintageIndex {
  /** Made by VintageIndexBuilder (or VintageIndex.load). */
  constructor(
    readonly vintageId: string,
    readonly size: number,
    /** Database id of each row. */
    readonly ids: Float64Array,
    /** parcel_key of each row. */
    readonly keys: string[],
    /** Position of each row's parcel_key in ascending order: the tie-break as an integer. */
    readonly keyRank: Uint32Array,
    /** Row numbers in ascending parcel_key order (for finding a cursor's key). */
    readonly rowsByKey: Uint32Array,
    private readonly columns: Map<string, Column>,
  ) {}

  column(field: string): Column | undefined {
    return this.columns.get(field);
  }

  fields(): string[] {
    return [...this.columns.keys()];
  }

  /** The rank a parcel_key has, or would have, in ascending key order (binary search). */
  rankOfKey(key: string): number {
    let low = 0;
    let high = this.size;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.keys[this.rowsByKey[middle]!]! < key) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Loads a vintage from the database in keyset pages (memory flat while reading). */
  static async load(db: Kysely<any>, vintageId: string, size: number): Promise<VintageIndex> {
    const builder = new VintageIndexBuilder(vintageId, size);
    let after = 0;
    for (;;) {
      // Facts merge typed, free and derived (D13).
      const { rows } = await sql<{ id: string | number; parcel_key: string; facts: Record<string, unknown> }>`
        select id, parcel_key, typed || free_facts || derived as facts
        from discovery.parcels where vintage_id = ${vintageId} and id > ${after}
        order by id limit ${PAGE}`.execute(db);
      for (const parcel of rows) builder.add(Number(parcel.id), parcel.parcel_key, parcel.facts);
      if (rows.length < PAGE) break;
      after = Number(rows.at(-1)!.id);
    }
    return builder.build();
  }
}

/** Collects the rows of a vintage (in any order) into a VintageIndex. */
export class VintageIndexBuilder {
  private readonly ids: Float64Array;
  private readonly keys: string[];
  private readonly builders = new Map<string, ColumnBuilder>();
  private row = 0;

  constructor(private readonly vintageId: string, private readonly capacity: number) {
    this.ids = new Float64Array(capacity);
    this.keys = new Array(capacity);
  }

  add(id: number, parcelKey: string, facts: Record<string, unknown>): void {
    if (this.row >= this.capacity) throw new Error(`vintage ${this.vintageId} holds more parcels than its count (${this.capacity})`);
    const row = this.row++;
    this.ids[row] = id;
    this.keys[row] = parcelKey;
    for (const [field, value] of Object.entries(facts)) {
      let column = this.builders.get(field);
      if (!column) this.builders.set(field, (column = new ColumnBuilder(this.capacity)));
      column.set(row, value);
    }
  }

  build(): VintageIndex {
    const count = this.row;
    const keys = this.keys.slice(0, count);
    const rowsByKey = new Uint32Array(count);
    for (let index = 0; index < count; index++) rowsByKey[index] = index;
    // D15 tie order: parcel_key ascending by code unit (as PostgreSQL's "C" collation).
    rowsByKey.sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : 0));
    const keyRank = new Uint32Array(count);
    for (let rank = 0; rank < count; rank++) keyRank[rowsByKey[rank]!] = rank;
    const columns = new Map<string, Column>();
    for (const [field, builder] of this.builders) columns.set(field, builder.build());
    return new VintageIndex(this.vintageId, count, this.ids.subarray(0, count), keys, keyRank, rowsByKey, columns);
  }
}
