// A derived vintage's base read back as records: the vintage a market's current one is, and the
// parcels of one chunk of its stored ranking index, a page at a time — the chunk's keys and free
// and derived facts from its columns, the rest from the base's rows (one short index scan a page).
// Prepare reads its base this way, in one process or a chunk per worker.

import type { BBox, GeoJSONGeometry, ParcelRecord } from '@landscreen/parcel-io';
import type { FieldProvenance } from '../field-provenance.js';
import type { DiscoveryDb, DiscoveryTransaction } from '../schema.js';
import { valueAt } from '../ranking/columns.js';
import { loadColumnChunk } from '../ranking/column-store.js';
import { DiscoveryInputError, findMarket } from './markets.js';

/** Parcels a page of a chunk holds: the rows one `parcel_key = any(keys)` reads. */
export const BASE_PAGE = 2_000;

/** The previous vintage a derived one is made from. */
export interface BaseVintage {
  marketId: string;
  vintageId: string;
  parcels: number;
}

export interface StoredBase extends BaseVintage {
  freeFactFields: string[];
  derivedFields: string[];
  fieldProvenance: FieldProvenance | null;
}

/** The columns of a base's row a record is made from. */
const STORED_COLUMNS = [
  'parcel_key',
  'apn',
  'apn_normalised',
  'address',
  'address_normalised',
  'lat',
  'lon',
  'bbox',
  'geometry',
  'acres',
  'developable_acres',
  'zoning',
  'land_use',
  'owner_name',
  'assessed_value_usd',
  'provenance',
] as const;

/** The market's current vintage, with the field lists and provenance a derived vintage keeps. */
export async function storedBase(db: DiscoveryDb, slug: string): Promise<StoredBase> {
  const market = await findMarket(db, slug);
  if (!market) throw new DiscoveryInputError(`no market "${slug}"`);
  if (!market.current_vintage_id) throw new DiscoveryInputError(`market "${slug}" has no current vintage: import its parcels first`);
  return storedBaseOf(db, market.id, market.current_vintage_id);
}

/** A given vintage of a market as a base (a prepare worker reads the base its job names). */
export async function storedBaseOf(db: DiscoveryDb, marketId: string, vintageId: string): Promise<StoredBase> {
  const vintage = await db
    .selectFrom('vintages')
    .select(['parcel_count', 'free_fact_fields', 'derived_fields', 'field_provenance'])
    .where('id', '=', vintageId)
    .executeTakeFirstOrThrow();
  return {
    marketId,
    vintageId,
    parcels: vintage.parcel_count,
    freeFactFields: vintage.free_fact_fields,
    derivedFields: vintage.derived_fields,
    fieldProvenance: vintage.field_provenance,
  };
}

/**
 * The parcels of chunk `chunk` of the base as pages of records in the chunk's row order: the
 * index through `indexReader`, the rows through `rowReader` (the same connection on PGlite).
 * Every field of the base's lists is set, nulls included, so a derived vintage lists the same.
 */
export async function* baseChunkPages(
  indexReader: DiscoveryDb,
  rowReader: DiscoveryDb | DiscoveryTransaction,
  base: StoredBase,
  chunk: number,
  /** Derived fields left out of the records (their new facts are handed over as columns). */
  replaced: ReadonlySet<string> = new Set(),
): AsyncIterable<ParcelRecord[]> {
  const part = await loadColumnChunk(indexReader, base.vintageId, chunk);
  const columnsOf = (fields: string[]) => fields.map((field) => [field, part.columns.get(field)] as const);
  const free = columnsOf(base.freeFactFields);
  const derived = columnsOf(base.derivedFields.filter((field) => !replaced.has(field)));
  for (let start = 0; start < part.keys.length; start += BASE_PAGE) {
    const keys = part.keys.slice(start, start + BASE_PAGE);
    // The page's keys on the partition's primary key: one short index scan.
    const rows = await rowReader
      .selectFrom('parcels')
      .select(STORED_COLUMNS)
      .where('vintage_id', '=', base.vintageId)
      .where((eb) => eb('parcel_key', '=', eb.fn.any(eb.val(keys))))
      // As the import wrote it (import-vintage.ts): a record's bbox.
      .$narrowType<{ bbox: BBox | null }>()
      .execute();
    const rowOfKey = new Map(rows.map((row) => [row.parcel_key, row]));
    yield keys.map((key, n) => {
      const row = rowOfKey.get(key);
      if (!row) throw new Error(`parcel ${key} of the index of vintage ${base.vintageId} is missing from its rows`);
      const at = start + n;
      const facts = (columns: typeof free) => new Map(columns.map(([field, column]) => [field, valueAt(column, at)]));
      return {
        line: at + 1,
        parcelKey: row.parcel_key,
        apn: row.apn,
        apnNormalised: row.apn_normalised,
        address: row.address,
        addressNormalised: row.address_normalised,
        lat: row.lat,
        lon: row.lon,
        bbox: row.bbox,
        // As the import wrote it: the record's GeoJSON geometry.
        geometry: row.geometry as GeoJSONGeometry | null,
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
        derived: facts(derived),
        computed: { ...(row.provenance ?? {}) } as ParcelRecord['computed'],
      } satisfies ParcelRecord;
    });
  }
}
