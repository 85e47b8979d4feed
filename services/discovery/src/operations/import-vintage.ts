import { sql } from 'kysely';
import { liftTimeouts } from '@landscreen/db';
import { ParcelRowError, type ParcelRecord } from '@landscreen/parcel-io';
import { systemClock, type Clock } from '@landscreen/rpc';
import type { FieldProvenance } from '../field-provenance.js';
import type { DiscoveryDb, DiscoveryTransaction } from '../schema.js';
import { ParcelIndexBuilder } from '../locate/parcel-index-builder.js';
import { saveParcelIndex } from '../locate/parcel-index-store.js';
import { CHUNK_ROWS, saveColumnChunk } from '../ranking/column-store.js';
import { VintageIndexBuilder } from '../ranking/vintage-index.js';
import { ensureMarket } from './markets.js';
import { attachVintageTable, createVintageTable } from './vintage-table.js';

const BATCH = 2_000;

export interface ImportProgress {
  parcels: number;
}

type ParcelRecords = AsyncIterable<ParcelRecord | ParcelRecord[]> | Iterable<ParcelRecord | ParcelRecord[]>;

export interface ImportResult {
  marketId: string;
  vintageId: string;
  parcels: number;
}

/**
 * Loads a new vintage of a market in ONE transaction (D16, D37): the vintage becomes current only
 * when every parcel loaded, and any failure — a bad row, a duplicate parcel_key, a crash — leaves
 * nothing behind and the previous vintage current and untouched. Parcels go in batches of
 * multi-row inserts (unnest of column arrays), so memory stays flat whatever the file size.
 */
export async function importVintage(
  db: DiscoveryDb,
  options: {
    market: string;
    name?: string;
    source: string;
    /**
     * Parcels, one at a time or in arrays (arrays save an await per parcel on big loads); or a
     * function of the import's transaction giving them, for records read from the database
     * (prepare reads the previous vintage: PGlite has one connection, held by the transaction).
     */
    records: ParcelRecords | ((trx: DiscoveryTransaction) => ParcelRecords);
    onProgress?(progress: ImportProgress): void;
    /**
     * A prepared vintage's provenance per field (field-provenance.ts), asked once every record
     * has been read and stored on the vintage in the same transaction.
     */
    fieldProvenance?(): FieldProvenance | null;
    /** What completed_at reads; the system clock by default. */
    clock?: Clock;
    /** Rows per stored chunk of the ranking index (default CHUNK_ROWS; tests vary it). */
    chunkRows?: number;
  },
): Promise<ImportResult> {
  const market = await ensureMarket(db, options.market, options.name);
  return db.transaction().execute(async (trx) => {
    // Minutes at a million parcels (inserts, the attach's index builds): no query timeout applies.
    await liftTimeouts(trx);
    const vintage = await trx
      .insertInto('vintages')
      .values({ market_id: market.id, status: 'loading', source: options.source, completed_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const table = await createVintageTable(trx, vintage.id);
    // The ranking index is built as the parcels stream past and stored with them, a chunk of rows
    // at a time, so memory stays flat whatever the market's size.
    let index = new VintageIndexBuilder(vintage.id);
    let chunk = 0;
    let chunkRows = 0;
    const saveChunk = async (built: ReturnType<VintageIndexBuilder['build']>, withKeyOrder: boolean) => {
      await saveColumnChunk(trx, vintage.id, chunk++, { keys: built.keys, columns: built.entries(), rowsByKey: withKeyOrder ? built.rowsByKey : undefined });
    };
    // So is the parcel index maps and LocateParcels read (its polygons packed, never re-parsed).
    const parcelIndex = new ParcelIndexBuilder(vintage.id);
    const freeFields = new Set<string>();
    const derivedFields = new Set<string>();
    let batch: ParcelRecord[] = [];
    let parcels = 0;
    // One batch is written while the next is read and mapped: the server and this process work at
    // the same time. A failed write surfaces at the next flush (or the last) and aborts it all.
    let inFlight: Promise<void> = Promise.resolve();
    const flush = async () => {
      if (batch.length === 0) return;
      const rows = batch;
      batch = [];
      await inFlight;
      inFlight = insertBatch(trx, table, vintage.id, rows).then(() => {
        parcels += rows.length;
        options.onProgress?.({ parcels });
      });
      inFlight.catch(() => {}); // observed by the next await
    };
    const records = typeof options.records === 'function' ? options.records(trx) : options.records;
    for await (const item of records) {
      for (const record of Array.isArray(item) ? item : [item]) {
        for (const field of record.freeFacts.keys()) freeFields.add(field);
        for (const field of record.derived.keys()) derivedFields.add(field);
        index.add(record.parcelKey, record.typed as unknown as Record<string, unknown>, record.freeFacts, record.derived);
        parcelIndex.add(indexedParcel(record));
        if (++chunkRows === (options.chunkRows ?? CHUNK_ROWS)) {
          await saveChunk(index.build(), false);
          index = new VintageIndexBuilder(vintage.id);
          chunkRows = 0;
        }
        batch.push(record);
        if (batch.length >= BATCH) await flush();
      }
    }
    await flush();
    await inFlight;
    const fieldProvenance = options.fieldProvenance?.() ?? null;
    await attachVintageTable(trx, vintage.id);
    // The last chunk (an empty vintage stores one, of no rows). A vintage of one chunk stores its
    // key order too, sparing a loader the sort; a larger one is sorted when loaded.
    if (chunkRows > 0 || chunk === 0) await saveChunk(index.build(), chunk === 0);
    await saveParcelIndex(trx, parcelIndex.finish());
    await trx
      .updateTable('vintages')
      .set((eb) => ({
        status: 'ready',
        parcel_count: parcels,
        free_fact_fields: [...freeFields].sort(),
        derived_fields: [...derivedFields].sort(),
        field_provenance: eb.cast<FieldProvenance | null>(eb.val(fieldProvenance === null ? null : JSON.stringify(fieldProvenance)), 'jsonb'),
        completed_at: (options.clock ?? systemClock).now(),
      }))
      .where('id', '=', vintage.id)
      .execute();
    await trx.updateTable('markets').set({ current_vintage_id: vintage.id }).where('id', '=', market.id).execute();
    return { marketId: market.id, vintageId: vintage.id, parcels };
  });
}

const finiteOrNull = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** What the parcel index keeps of a record: the values insertBatch stores in the same columns. */
function indexedParcel(r: ParcelRecord) {
  return {
    parcel_key: r.parcelKey,
    geometry: r.geometry as { type: string } | null,
    apn: r.apn ?? null,
    address: r.address ?? null,
    owner_name: (r.typed.owner_name as string | undefined) ?? null,
    zoning: (r.typed.zoning as string | undefined) ?? null,
    acres: finiteOrNull(r.typed.acres),
    lat: finiteOrNull(r.lat),
    lon: finiteOrNull(r.lon),
  };
}

/** Writes a batch of parcels into a vintage's table (one JSON document, parsed once by the server). */
export async function insertBatch(trx: DiscoveryTransaction, table: string, vintageId: string, records: ParcelRecord[]): Promise<void> {
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
  // One JSON document per batch: serialised natively here and parsed once by the server, which is
  // several times faster than binding twenty parameter arrays of escaped text.
  const rows = records.map((r) => {
    const json = JSON.stringify({
      k: r.parcelKey,
      a: r.apn,
      an: r.apnNormalised,
      d: r.address,
      dn: r.addressNormalised,
      la: number(r.lat),
      lo: number(r.lon),
      b: r.bbox,
      g: r.geometry,
      ac: number(r.typed.acres),
      da: number(r.typed.developable_acres),
      z: r.typed.zoning ?? null,
      lu: r.typed.land_use ?? null,
      o: r.typed.owner_name ?? null,
      v: number(r.typed.assessed_value_usd),
      p: r.computed,
    });
    // PostgreSQL text cannot hold U+0000: name the row instead of failing the whole statement.
    if (json.includes('\\u0000')) throw new ParcelRowError(r.line, 'a value contains a NUL character (U+0000)');
    return json;
  });
  const batch = `[${rows.join(',')}]`;
  // SQL text: `json_to_recordset(…) as x(…)` is a table function with a column list, which the
  // builder has no word for, into a table (the vintage's own) that is not one of the schema's types.
  await sql`
    insert into ${sql.raw(table)} (
      vintage_id, parcel_key, apn, apn_normalised, address, address_normalised, lat, lon, bbox, geometry,
      acres, developable_acres, zoning, land_use, owner_name, assessed_value_usd, provenance)
    select ${vintageId}::uuid, k, a, an, d, dn, la, lo, b, g, ac, da, z, lu, o, v, p
    from json_to_recordset(${batch}::json) as x(
      k text, a text, an text, d text, dn text, la float8, lo float8, b json, g json,
      ac float8, da float8, z text, lu text, o text, v float8, p json)`.execute(trx);
}
