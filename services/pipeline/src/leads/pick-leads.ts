import type { CallOptions } from '@connectrpc/connect';
import type { discoveryv1 } from '@landscreen/proto';
import type { PipelineContext } from '../context.js';
import type { PipelineDb } from '../schema.js';

/** A page of Query as large as discovery serves (spec Limits: 1-200). */
const PAGE = 200;

export interface PickedLeads {
  market: string;
  vintageId: string;
  queryHash: string;
  /** Best first, at most the count asked for. */
  parcelKeys: string[];
}

/**
 * The parcels a delivery may not hold again (D30): every parcel the tenant already has as a
 * property (promoted, added to the board, imported or delivered) and every parcel of an earlier
 * delivery.
 */
export async function excludedParcelKeys(db: PipelineDb, tenantId: string, among?: string[]): Promise<Set<string>> {
  const keysOf = (table: 'properties' | 'delivery_leads') => {
    const keys = db.selectFrom(table).select('parcel_key').where('tenant_id', '=', tenantId);
    return among ? keys.where((eb) => eb('parcel_key', '=', eb.fn.any(eb.val(among)))) : keys;
  };
  const rows = await keysOf('properties').union(keysOf('delivery_leads')).execute();
  return new Set(rows.map((row) => row.parcel_key));
}

/**
 * The best `count` parcels of the buy box's market as discovery ranks them (score desc, then
 * parcel_key: D15), leaving out the excluded ones: Query's pages are read in order until enough
 * are left or the ranking ends. Discovery checks the buy box (404) and the entitlement (403).
 */
export async function pickLeads(context: PipelineContext, options: CallOptions, buyBox: string, count: number, excluded: Set<string>): Promise<PickedLeads> {
  const parcelKeys: string[] = [];
  let cursor: string | undefined;
  let first: discoveryv1.QueryResponse | undefined;
  do {
    const page = await context.discovery.query({ buyBox, limit: PAGE, cursor }, options);
    first ??= page;
    for (const result of page.results) {
      if (excluded.has(result.parcelKey)) continue;
      parcelKeys.push(result.parcelKey);
      if (parcelKeys.length === count) break;
    }
    cursor = page.nextCursor;
  } while (parcelKeys.length < count && cursor !== undefined);
  return { market: first.market, vintageId: first.vintageId, queryHash: first.queryHash, parcelKeys };
}
