import { sql } from 'kysely';
import type { BBox, GeoJSONGeometry, ParcelRecord } from '@landscreen/parcel-io';
import type { FieldProvenance } from '../field-provenance.js';
import type { DiscoveryDb, DiscoveryTransaction } from '../schema.js';
import { valueAt } from '../ranking/columns.js';
import { canCopyOut } from '@landscreen/db';
import { loadColumnChunk, storedChunks } from '../ranking/column-store.js';
import { importVintage, type ImportProgress, type ImportResult } from './import-vintage.js';
import { DiscoveryInputError, findMarket } from './markets.js';

const PAGE = 2_000;

/** The previous vintage a derived one is made from. */
export interface BaseVintage {
  marketId: string;
  vintageId: string;
  parcels: number;
}

export interface DeriveVintageOptions {
  market: string;
  /** What the new vintage says it came from. */
  source: string;
  /** Called once the base vintage is known, before anything is read or written. */
  onBase?(base: BaseVintage): void;
  /**
   * Adds facts to a page of the base vintage's parcels, in place (`derived` and `computed`).
   * A throw aborts the whole vintage: nothing is written and the base stays current.
   */
  derive(records: ParcelRecord[]): void | Promise<void>;
  onProgress?(progress: ImportProgress): void;
  /**
   * How many pages `derive` may work on at once (default 1): with its work elsewhere (worker
   * threads), the next pages are read and derived while earlier ones are written. Pages are
   * still written in the base's row order.
   */
  parallelism?: number;
  /**
   * The provenance of the fields `derive` added, once per field (field-provenance.ts), asked when
   * every page is derived; the base vintage's entries of the other fields are kept.
   */
  fieldProvenance?(): FieldProvenance;
  /** Rows per stored chunk of the new vintage's ranking index (importVintage's chunkRows). */
  chunkRows?: number;
}

interface StoredParcel {
  parcel_key: string;
  apn: string | null;
  apn_normalised: string | null;
  address: string | null;
  address_normalised: string | null;
  lat: number | null;
  lon: number | null;
  bbox: BBox | null;
  geometry: GeoJSONGeometry | null;
  acres: number | null;
  developable_acres: number | null;
  zoning: string | null;
  land_use: string | null;
  owner_name: string | null;
  assessed_value_usd: number | null;
  provenance: Record<string, unknown> | null;
}

/**
 * A new vintage of a market's current parcels with facts added by `derive` (landscreen prepare):
 * the same parcel_keys, geometry, typed, free and derived facts, written through importVintage,
 * so it is one transaction that becomes current only when complete, and the base is untouched.
 * Parcels are read in the base's row order, one chunk of its stored ranking index at a time (their
 * free and derived facts live there), and a page of that chunk's keys at a time from the base's
 * rows inside the import's transaction: memory holds a chunk and the pages in flight, whatever the
 * market's size.
 */
export async function deriveVintage(db: DiscoveryDb, options: DeriveVintageOptions): Promise<ImportResult> {
  const base = await baseVintage(db, options.market);
  options.onBase?.({ marketId: base.marketId, vintageId: base.vintageId, parcels: base.parcels });
  return importVintage(db, {
    market: options.market,
    source: options.source,
    onProgress: options.onProgress,
    chunkRows: options.chunkRows,
    // The base's stored index is read one chunk at a time: through a connection of its own on
    // PostgreSQL (binary COPY), through the transaction's on PGlite (its only one).
    records: (trx) => derivedRecords(trx, canCopyOut(db) ? db : trx, base, options.derive, Math.max(1, options.parallelism ?? 1)),
    fieldProvenance: () => {
      const merged = { ...(base.fieldProvenance ?? {}), ...(options.fieldProvenance?.() ?? {}) };
      return Object.keys(merged).length === 0 ? null : merged;
    },
  });
}

async function baseVintage(db: DiscoveryDb, slug: string) {
  const market = await findMarket(db, slug);
  if (!market) throw new DiscoveryInputError(`no market "${slug}"`);
  if (!market.current_vintage_id) throw new DiscoveryInputError(`market "${slug}" has no current vintage: import its parcels first`);
  const vintage = await db
    .selectFrom('vintages')
    .select(['parcel_count', 'free_fact_fields', 'derived_fields', 'field_provenance'])
    .where('id', '=', market.current_vintage_id)
    .executeTakeFirstOrThrow();
  return {
    marketId: market.id,
    vintageId: market.current_vintage_id,
    parcels: vintage.parcel_count,
    freeFactFields: vintage.free_fact_fields,
    derivedFields: vintage.derived_fields,
    fieldProvenance: vintage.field_provenance,
  };
}

async function* derivedRecords(
  trx: DiscoveryTransaction,
  indexReader: DiscoveryDb,
  base: Awaited<ReturnType<typeof baseVintage>>,
  derive: DeriveVintageOptions['derive'],
  parallelism: number,
): AsyncIterable<ParcelRecord[]> {
  const chunks = await storedChunks(indexReader, base.vintageId);
  /** The base's rows as pages: a chunk's keys and columns, and the rows of it a page covers. */
  async function* pagesOfChunks() {
    for (const chunk of chunks) {
      const part = await loadColumnChunk(indexReader, base.vintageId, chunk);
      const columnsOf = (fields: string[]) => fields.map((field) => [field, part.columns.get(field)] as const);
      const free = columnsOf(base.freeFactFields);
      const derived = columnsOf(base.derivedFields);
      for (let start = 0; start < part.keys.length; start += PAGE) yield { keys: part.keys.slice(start, start + PAGE), start, free, derived };
    }
  }
  const pages = pagesOfChunks();
  let line = 0;
  /**
   * Reads the next page and starts deriving it: the page's records once derived (null at the end).
   * Wrapped, so awaiting the read does not await the derivation.
   */
  const nextPage = async (): Promise<{ derived: Promise<ParcelRecord[]> } | null> => {
    const next = await pages.next();
    if (next.done) return null;
    const { keys, start, free, derived: derivedColumns } = next.value;
    // The page's keys on the partition's primary key: one short index scan.
    const { rows } = await sql<StoredParcel>`
      select parcel_key, apn, apn_normalised, address, address_normalised, lat, lon, bbox, geometry,
             acres, developable_acres, zoning, land_use, owner_name, assessed_value_usd, provenance
      from discovery.parcels
      where vintage_id = ${base.vintageId} and parcel_key = any(${keys}::text[])`.execute(trx);
    const rowOfKey = new Map(rows.map((row) => [row.parcel_key, row]));
    const records = keys.map((key, n) => {
      const row = rowOfKey.get(key);
      if (!row) throw new Error(`parcel ${key} of the index of vintage ${base.vintageId} is missing from its rows`);
      const at = start + n;
      // Every field of the base's lists, nulls included, so the new vintage lists the same fields.
      const facts = (columns: typeof free) => new Map(columns.map(([field, column]) => [field, valueAt(column, at)]));
      return {
        line: ++line,
        parcelKey: row.parcel_key,
        apn: row.apn,
        apnNormalised: row.apn_normalised,
        address: row.address,
        addressNormalised: row.address_normalised,
        lat: row.lat,
        lon: row.lon,
        bbox: row.bbox,
        geometry: row.geometry,
        typed: {
          acres: row.acres,
          developable_acres: row.developable_acres,
          zoning: row.zoning,
          land_use: row.land_use,
          owner_name: row.owner_name,
          assessed_value_usd: row.assessed_value_usd,
          apn: row.apn,
          address: row.address,
        },
        freeFacts: facts(free),
        derived: facts(derivedColumns),
        computed: { ...(row.provenance ?? {}) } as ParcelRecord['computed'],
      } satisfies ParcelRecord;
    });
    const derived = Promise.resolve(derive(records)).then(() => records);
    derived.catch(() => {}); // observed when its turn to be written comes
    return { derived };
  };
  const inFlight: Promise<ParcelRecord[]>[] = [];
  for (;;) {
    while (inFlight.length < parallelism) {
      const page = await nextPage();
      if (!page) break;
      inFlight.push(page.derived);
    }
    const page = inFlight.shift();
    if (!page) return;
    yield await page;
  }
}
