import { sql } from 'kysely';
import type { BBox, GeoJSONGeometry, ParcelRecord } from '@landscreen/parcel-io';
import type { FieldProvenance } from '../field-provenance.js';
import type { DiscoveryDb, DiscoveryTransaction } from '../schema.js';
import { valueAt } from '../ranking/columns.js';
import { loadVintageIndex } from '../ranking/column-store.js';
import type { VintageIndex } from '../ranking/vintage-index.js';
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
   * still written in parcel_key order.
   */
  parallelism?: number;
  /**
   * The provenance of the fields `derive` added, once per field (field-provenance.ts), asked when
   * every page is derived; the base vintage's entries of the other fields are kept.
   */
  fieldProvenance?(): FieldProvenance;
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
 * Parcels are read page by page in parcel_key order, inside the import's transaction; their
 * free and derived facts come from the base vintage's stored ranking index (they live there).
 */
export async function deriveVintage(db: DiscoveryDb, options: DeriveVintageOptions): Promise<ImportResult> {
  const base = await baseVintage(db, options.market);
  options.onBase?.({ marketId: base.marketId, vintageId: base.vintageId, parcels: base.parcels });
  const index = await loadVintageIndex(db, base.vintageId);
  return importVintage(db, {
    market: options.market,
    source: options.source,
    onProgress: options.onProgress,
    records: (trx) => derivedRecords(trx, base, index, options.derive, Math.max(1, options.parallelism ?? 1)),
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
  base: Awaited<ReturnType<typeof baseVintage>>,
  index: VintageIndex,
  derive: DeriveVintageOptions['derive'],
  parallelism: number,
): AsyncIterable<ParcelRecord[]> {
  const columnsOf = (fields: string[]) => fields.map((field) => [field, index.column(field)] as const);
  const freeColumns = columnsOf(base.freeFactFields);
  const derivedColumns = columnsOf(base.derivedFields);
  let after = '';
  let line = 0;
  let read = false;
  /**
   * Reads the next page and starts deriving it: the page's records once derived (null at the end).
   * Wrapped, so awaiting the read does not await the derivation.
   */
  const nextPage = async (): Promise<{ derived: Promise<ParcelRecord[]> } | null> => {
    if (read) return null;
    // Keyset pages on the partition's primary key: each page is one short index scan.
    const { rows } = await sql<StoredParcel>`
      select parcel_key, apn, apn_normalised, address, address_normalised, lat, lon, bbox, geometry,
             acres, developable_acres, zoning, land_use, owner_name, assessed_value_usd, provenance
      from discovery.parcels
      where vintage_id = ${base.vintageId} and parcel_key > ${after}
      order by parcel_key
      limit ${PAGE}`.execute(trx);
    if (rows.length < PAGE) read = true;
    if (rows.length === 0) return null;
    const records = rows.map((row) => {
      const at = index.rowOfKey(row.parcel_key);
      if (at === undefined) throw new Error(`parcel ${row.parcel_key} is missing from the index of vintage ${base.vintageId}`);
      // Every field of the base's lists, nulls included, so the new vintage lists the same fields.
      const facts = (columns: typeof freeColumns) => new Map(columns.map(([field, column]) => [field, valueAt(column, at)]));
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
        freeFacts: facts(freeColumns),
        derived: facts(derivedColumns),
        computed: { ...(row.provenance ?? {}) } as ParcelRecord['computed'],
      } satisfies ParcelRecord;
    });
    after = rows[rows.length - 1]!.parcel_key;
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
