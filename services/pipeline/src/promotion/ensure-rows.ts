import { nextPosition } from '../board/positions.js';
import type { PipelineTransaction } from '../schema.js';

export interface Ensured {
  id: string;
  created: boolean;
}

export interface PropertyInput {
  tenantId: string;
  marketId: string;
  market: string;
  vintageId: string;
  parcelKey: string;
  apn: string | null;
  address: string | null;
  lat: number | null;
  lon: number | null;
  acres: number | null;
  /** The parcel as discovery answered it, kept with the property. */
  parcel: unknown;
}

/**
 * Each ensure* inserts its row unless the unique key already holds one, and answers that row's
 * id either way: a repeated (or concurrent, once the insert has waited for the other transaction)
 * write finds the first one's row instead of making its own.
 */
export async function ensureProperty(trx: PipelineTransaction, input: PropertyInput): Promise<Ensured> {
  const inserted = await trx
    .insertInto('properties')
    .values({
      tenant_id: input.tenantId,
      market_id: input.marketId,
      market: input.market,
      parcel_key: input.parcelKey,
      vintage_id: input.vintageId,
      apn: input.apn,
      address: input.address,
      lat: input.lat,
      lon: input.lon,
      acres: input.acres,
      parcel: JSON.stringify(input.parcel),
    })
    .onConflict((conflict) => conflict.columns(['tenant_id', 'parcel_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return { id: inserted.id, created: true };
  const existing = await trx
    .selectFrom('properties')
    .select('id')
    .where('tenant_id', '=', input.tenantId)
    .where('parcel_key', '=', input.parcelKey)
    .executeTakeFirstOrThrow();
  return { id: existing.id, created: false };
}

/** The verdict a card shows: its property's latest buy-box match. */
export interface CardVerdict {
  buyBox: string;
  verdict: string;
  score: number;
}

/**
 * The property's card; a new one goes last in `new` (D18). A card that already existed takes the
 * verdict of a new match (`verdictChanged`), so the board shows the latest screen; `at` is the
 * time of the change, from the service's clock.
 */
export async function ensureItem(
  trx: PipelineTransaction,
  tenantId: string,
  propertyId: string,
  options: { notes?: string | null; verdict?: CardVerdict; verdictChanged?: boolean; at: Date },
): Promise<Ensured> {
  const { verdict } = options;
  const inserted = await trx
    .insertInto('items')
    .values({
      tenant_id: tenantId,
      property_id: propertyId,
      stage: 'new',
      position: nextPosition(trx, tenantId, 'new'),
      notes: options.notes ?? null,
      buy_box: verdict?.buyBox ?? null,
      verdict: verdict?.verdict ?? null,
      score: verdict?.score ?? null,
    })
    .onConflict((conflict) => conflict.column('property_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return { id: inserted.id, created: true };
  let existing;
  if (verdict && options.verdictChanged) {
    existing = await trx
      .updateTable('items')
      .set({ buy_box: verdict.buyBox, verdict: verdict.verdict, score: verdict.score, updated_at: options.at })
      .where('property_id', '=', propertyId)
      .returning('id')
      .executeTakeFirstOrThrow();
  } else {
    existing = await trx.selectFrom('items').select('id').where('property_id', '=', propertyId).executeTakeFirstOrThrow();
  }
  return { id: existing.id, created: false };
}
