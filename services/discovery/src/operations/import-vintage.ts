import { sql, type Kysely } from 'kysely';
import type { ParcelRecord } from '@landscreen/parcel-io';
import { discoveryDb } from '../schema.js';
import { ensureMarket } from './markets.js';

const BATCH = 2_000;

export interface ImportProgress {
  parcels: number;
}

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
  db: Kysely<any>,
  options: { market: string; name?: string; source: string; records: AsyncIterable<ParcelRecord>; onProgress?(progress: ImportProgress): void },
): Promise<ImportResult> {
  const market = await ensureMarket(db, options.market, options.name);
  return db.transaction().execute(async (trx) => {
    const discovery = discoveryDb(trx);
    const vintage = await discovery
      .insertInto('vintages')
      .values({ market_id: market.id, status: 'loading', source: options.source, completed_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const freeFields = new Set<string>();
    const derivedFields = new Set<string>();
    let batch: ParcelRecord[] = [];
    let parcels = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      await insertBatch(trx, vintage.id, batch);
      parcels += batch.length;
      batch = [];
      options.onProgress?.({ parcels });
    };
    for await (const record of options.records) {
      for (const field of Object.keys(record.freeFacts)) freeFields.add(field);
      for (const field of Object.keys(record.derived)) derivedFields.add(field);
      batch.push(record);
      if (batch.length >= BATCH) await flush();
    }
    await flush();
    await discovery
      .updateTable('vintages')
      .set({ status: 'ready', parcel_count: parcels, free_fact_fields: [...freeFields].sort(), derived_fields: [...derivedFields].sort(), completed_at: new Date() })
      .where('id', '=', vintage.id)
      .execute();
    await discovery.updateTable('markets').set({ current_vintage_id: vintage.id }).where('id', '=', market.id).execute();
    return { marketId: market.id, vintageId: vintage.id, parcels };
  });
}

async function insertBatch(trx: Kysely<any>, vintageId: string, records: ParcelRecord[]): Promise<void> {
  const column = <T>(pick: (record: ParcelRecord) => T) => records.map(pick);
  const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  await sql`
    insert into discovery.parcels (
      vintage_id, parcel_key, apn, apn_normalised, address, address_normalised, lat, lon, bbox, geometry,
      acres, developable_acres, zoning, land_use, owner_name, assessed_value_usd, typed, free_facts, derived, provenance)
    select ${vintageId}::uuid, * from unnest(
      ${column((r) => r.parcelKey)}::text[], ${column((r) => r.apn)}::text[], ${column((r) => r.apnNormalised)}::text[],
      ${column((r) => r.address)}::text[], ${column((r) => r.addressNormalised)}::text[],
      ${column((r) => number(r.lat))}::float8[], ${column((r) => number(r.lon))}::float8[],
      ${column((r) => json(r.bbox))}::jsonb[], ${column((r) => json(r.geometry))}::jsonb[],
      ${column((r) => number(r.typed.acres))}::float8[], ${column((r) => number(r.typed.developable_acres))}::float8[],
      ${column((r) => text(r.typed.zoning))}::text[], ${column((r) => text(r.typed.land_use))}::text[],
      ${column((r) => text(r.typed.owner_name))}::text[], ${column((r) => number(r.typed.assessed_value_usd))}::float8[],
      ${column((r) => json(r.typed))}::jsonb[], ${column((r) => json(r.freeFacts))}::jsonb[],
      ${column((r) => json(r.derived))}::jsonb[], ${column((r) => json(storedProvenance(r)))}::jsonb[])`.execute(trx);
}

/**
 * Only what is not plain "imported as given" is stored per parcel (a computed acreage, say): the
 * rest is implied by the vintage and rebuilt on read (parcel-rows.ts). Storing `{source: import}`
 * for every derived fact of a million parcels would cost about a gigabyte.
 */
function storedProvenance(record: ParcelRecord): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [field, provenance] of Object.entries(record.provenance)) if (provenance.source !== 'import') kept[field] = provenance;
  return kept;
}
