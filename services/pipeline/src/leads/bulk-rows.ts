import { sql } from 'kysely';
import type { PropertyInput } from '../promotion/ensure-rows.js';
import { stageRank } from '../board/stages.js';
import type { PipelineTransaction } from '../schema.js';

/**
 * Set-based versions of promotion's ensure* (promotion/ensure-rows.ts) for a lead import or a
 * delivery: each answers every row's id, created or found, in a statement per thousand rows. The
 * rows that exist are read first by their unique key, so a repeated import sends only keys; the
 * others travel as JSON parameters of 1,000 rows (no bind-parameter limit), unpacked with
 * jsonb_to_recordset and inserted with `on conflict do nothing returning`. Those inserts are SQL
 * text, the reads builder calls: the builder has no word for a `jsonb_to_recordset` column list,
 * and a ParcelCandidate's JSON (RawJson) is spliced into the parameter unparsed. A key that
 * neither read found nor insert returned was committed by a concurrent transaction meanwhile (the
 * insert waited for it): it is read once more, so a concurrent twin finds the first one's rows, as
 * promotion does. Buy-box matches have their one writer, for promotions and imports alike, in
 * matches/match-rows.ts, built on ensureByKey.
 */
export interface BulkEnsured {
  id: string;
  created: boolean;
}

/** JSON text already encoded (a ParcelCandidate as discovery sent it): put in the rows as it is. */
export class RawJson {
  constructor(readonly text: string) {}
  static of(bytes: Uint8Array): RawJson {
    return new RawJson(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  }
}

/** The rows as one JSON array text; RawJson values are spliced in without a parse and re-encode. */
export function encodeRows(rows: Record<string, unknown>[]): string {
  const parts = rows.map((row) => {
    const fields: string[] = [];
    for (const [key, value] of Object.entries(row)) {
      fields.push(`${JSON.stringify(key)}:${value instanceof RawJson ? value.text : JSON.stringify(value ?? null)}`);
    }
    return `{${fields.join(',')}}`;
  });
  return `[${parts.join(',')}]`;
}

/** Rows per insert statement: bounds the JSON text one statement carries (a parcel is KBs). */
const INSERT_CHUNK = 1_000;

/** Find, insert what is missing, find again what a concurrent writer committed meanwhile. */
export async function ensureByKey<T>(
  inputs: T[],
  keyOf: (input: T) => string,
  find: (keys: string[]) => Promise<Map<string, string>>,
  insert: (inputs: T[]) => Promise<Map<string, string>>,
): Promise<Map<string, BulkEnsured>> {
  const result = new Map<string, BulkEnsured>();
  if (inputs.length === 0) return result;
  for (const [key, id] of await find([...new Set(inputs.map(keyOf))])) result.set(key, { id, created: false });
  const fresh = new Map<string, T>();
  for (const input of inputs) if (!result.has(keyOf(input)) && !fresh.has(keyOf(input))) fresh.set(keyOf(input), input);
  if (fresh.size === 0) return result;
  const rows = [...fresh.values()];
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    for (const [key, id] of await insert(rows.slice(start, start + INSERT_CHUNK))) result.set(key, { id, created: true });
  }
  const raced = [...fresh.keys()].filter((key) => !result.has(key));
  if (raced.length > 0) for (const [key, id] of await find(raced)) result.set(key, { id, created: false });
  return result;
}

export const idsBy = <R extends { id: string }>(rows: R[], key: (row: R) => string) => new Map(rows.map((row) => [key(row), row.id]));

type PropertyRow = Omit<PropertyInput, 'tenantId' | 'parcel'> & { parcel: unknown };

/** Properties, one per tenant and parcel_key (D19); answered by parcel_key. */
export async function ensureProperties(trx: PipelineTransaction, tenantId: string, inputs: PropertyRow[]): Promise<Map<string, BulkEnsured>> {
  return ensureByKey(
    inputs,
    (input) => input.parcelKey,
    async (keys) => {
      const rows = await trx
        .selectFrom('properties')
        .select(['id', 'parcel_key'])
        .where('tenant_id', '=', tenantId)
        .where((eb) => eb('parcel_key', '=', eb.fn.any(eb.val(keys))))
        .execute();
      return idsBy(rows, (row) => row.parcel_key);
    },
    async (fresh) => {
      const rows = fresh.map((input) => ({
        market_id: input.marketId,
        market: input.market,
        parcel_key: input.parcelKey,
        vintage_id: input.vintageId,
        apn: input.apn,
        address: input.address,
        lat: input.lat,
        lon: input.lon,
        acres: input.acres,
        parcel: input.parcel,
      }));
      const { rows: inserted } = await sql<{ id: string; parcel_key: string }>`
        insert into pipeline.properties (tenant_id, market_id, market, parcel_key, vintage_id, apn, address, lat, lon, acres, parcel)
        select ${tenantId}, market_id, market, parcel_key, vintage_id, apn, address, lat, lon, acres, parcel
        from jsonb_to_recordset(${encodeRows(rows)}::jsonb) as r(
          market_id uuid, market text, parcel_key text, vintage_id uuid, apn text, address text,
          lat double precision, lon double precision, acres double precision, parcel jsonb)
        on conflict (tenant_id, parcel_key) do nothing
        returning id, parcel_key`.execute(trx);
      return idsBy(inserted, (row) => row.parcel_key);
    },
  );
}

export interface ItemRow {
  propertyId: string;
  /** The card's verdict (the import's screen), when there was one. */
  verdict?: { buyBox: string; verdict: string; score: number };
  /** True when the verdict comes from a match made now: an existing card takes it (as promotion). */
  verdictChanged: boolean;
}

/**
 * Cards, one per property, new ones last in `new` in input order (D18); an existing card takes the
 * verdict of a match made now. Answered by property id.
 */
export async function ensureItems(trx: PipelineTransaction, tenantId: string, inputs: ItemRow[]): Promise<Map<string, BulkEnsured>> {
  const items = await ensureByKey(
    inputs,
    (input) => input.propertyId,
    async (propertyIds) => {
      const rows = await trx
        .selectFrom('items')
        .select(['id', 'property_id'])
        .where((eb) => eb('property_id', '=', eb.fn.any(eb.val(propertyIds))))
        .execute();
      return idsBy(rows, (row) => row.property_id);
    },
    async (fresh) => {
      const rows = fresh.map((input, ord) => ({
        property_id: input.propertyId,
        ord,
        buy_box: input.verdict?.buyBox ?? null,
        verdict: input.verdict?.verdict ?? null,
        score: input.verdict?.score ?? null,
      }));
      const { rows: inserted } = await sql<{ id: string; property_id: string }>`
        with base as (
          select coalesce(max(position) + 1, 0) as position from pipeline.items where tenant_id = ${tenantId} and stage_rank = ${stageRank('new')}
        )
        insert into pipeline.items (tenant_id, property_id, stage, position, buy_box, verdict, score)
        select ${tenantId}, r.property_id, 'new', base.position + r.ord, r.buy_box, r.verdict, r.score
        from jsonb_to_recordset(${encodeRows(rows)}::jsonb) as r(property_id uuid, ord integer, buy_box text, verdict text, score double precision)
        cross join base
        order by r.ord
        on conflict (property_id) do nothing
        returning id, property_id`.execute(trx);
      return idsBy(inserted, (row) => row.property_id);
    },
  );
  const changed = inputs.filter((input) => input.verdict && input.verdictChanged && items.get(input.propertyId)?.created === false);
  if (changed.length > 0) {
    const updates = changed.map((input) => ({ property_id: input.propertyId, ...input.verdict }));
    await sql`
      update pipeline.items i set buy_box = u.buy_box, verdict = u.verdict, score = u.score, updated_at = now()
      from jsonb_to_recordset(${encodeRows(updates)}::jsonb) as u(property_id uuid, buy_box text, verdict text, score double precision)
      where i.property_id = u.property_id`.execute(trx);
  }
  return items;
}
