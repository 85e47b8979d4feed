import type { HandlerContext } from '@connectrpc/connect';
import { sql } from 'kysely';
import { normaliseAddress, normaliseApn } from '@landscreen/parcel-io';
import type { discoveryv1 } from '@landscreen/proto';
import { jsonBytes, requireCaller, validationError } from '@landscreen/rpc';
import type { DiscoveryContext } from '../context.js';
import { marketForCaller } from '../market-access.js';
import { provenanceOf, type ParcelRow } from '../parcel-rows.js';

const MAX_CANDIDATES = 10;
const COLUMNS = sql`parcel_key, apn, address, lat, lon, geometry, typed, free_facts, derived, provenance`;

/**
 * D17: a parcel by APN (letters and digits only, case-folded) or by address (USPS-normalised,
 * then by trigram similarity). One candidate is `resolved`, several `ambiguous` (best first, at
 * most 10), none `not_found`. APN wins when both are given and it matches.
 */
export function resolveHandler(context: DiscoveryContext) {
  return async (request: discoveryv1.ResolveRequest, call: HandlerContext) => {
    const { tenantId } = requireCaller(call);
    const apn = request.apn?.trim() ? normaliseApn(request.apn) : '';
    const address = request.address?.trim() ? normaliseAddress(request.address) : '';
    if (!apn && !address) {
      throw validationError([
        { type: 'value_error', loc: ['body'], msg: 'Value error, give an apn or an address', input: { market: request.market, apn: request.apn ?? null, address: request.address ?? null }, ctx: { error: 'apn or address required' } },
      ]);
    }
    const { market, vintage } = await marketForCaller(context, tenantId, request.market);
    let candidates: Omit<ParcelRow, 'acres' | 'developable_acres' | 'bbox'>[] = [];
    if (apn) {
      candidates = (await sql<ParcelRow>`
        select ${COLUMNS} from discovery.parcels
        where vintage_id = ${vintage.id} and apn_normalised = ${apn}
        order by parcel_key limit ${MAX_CANDIDATES}`.execute(context.db)).rows;
    }
    if (candidates.length === 0 && address) {
      candidates = (await sql<ParcelRow>`
        select ${COLUMNS} from discovery.parcels
        where vintage_id = ${vintage.id} and address_normalised = ${address}
        order by parcel_key limit ${MAX_CANDIDATES}`.execute(context.db)).rows;
      if (candidates.length === 0) {
        candidates = (await sql<ParcelRow>`
          select ${COLUMNS} from discovery.parcels
          where vintage_id = ${vintage.id} and address_normalised % ${address}
          order by similarity(address_normalised, ${address}) desc, parcel_key limit ${MAX_CANDIDATES}`.execute(context.db)).rows;
      }
    }
    return {
      bodyJson: jsonBytes({
        status: candidates.length === 0 ? 'not_found' : candidates.length === 1 ? 'resolved' : 'ambiguous',
        market: market.slug,
        market_id: market.id,
        vintage_id: vintage.id,
        candidates: candidates.map((row) => ({
          market: market.slug,
          vintage_id: vintage.id,
          parcel_key: row.parcel_key,
          apn: row.apn,
          address: row.address,
          lat: row.lat,
          lon: row.lon,
          geometry: row.geometry,
          typed: row.typed,
          free_facts: row.free_facts,
          derived: row.derived,
          provenance: provenanceOf(row, vintage.id),
        })),
      }),
    };
  };
}
