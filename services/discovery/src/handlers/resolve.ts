import type { HandlerContext } from '@connectrpc/connect';
import { normaliseAddress, normaliseApn } from '@landscreen/parcel-io';
import type { discoveryv1 } from '@landscreen/proto';
import { requireCaller, validationError } from '@landscreen/rpc';
import { addressSimilarity, similarAddress } from '../address-similarity.js';
import type { DiscoveryContext } from '../context.js';
import { marketForCaller } from '../market-access.js';
import { candidateFacts, parcelCandidate } from '../candidates.js';
import { PARCEL_COLUMNS, type ParcelRow } from '../parcel-rows.js';

const MAX_CANDIDATES = 10;

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
    const access = await marketForCaller(context, tenantId, request.market);
    const { market, vintage } = access;
    // The holder of the market answers (it runs the searches below once, there).
    await context.indexes.here(market, call);
    const inVintage = context.db.selectFrom('parcels').select(PARCEL_COLUMNS).where('vintage_id', '=', vintage.id);
    let candidates: ParcelRow[] = [];
    if (apn) {
      candidates = await inVintage.where('apn_normalised', '=', apn).orderBy('parcel_key').limit(MAX_CANDIDATES).execute();
    }
    if (candidates.length === 0 && address) {
      candidates = await inVintage.where('address_normalised', '=', address).orderBy('parcel_key').limit(MAX_CANDIDATES).execute();
      if (candidates.length === 0) {
        candidates = await inVintage
          .where((eb) => similarAddress(eb, address))
          .orderBy((eb) => addressSimilarity(eb, address), 'desc')
          .orderBy('parcel_key')
          .limit(MAX_CANDIDATES)
          .execute();
      }
    }
    // Facts come from the vintage's columns, as for ranking.
    const index = candidates.length > 0 ? await context.indexes.ranking(access, call) : undefined;
    const facts = index ? await candidateFacts(index, access.vintage, candidates) : [];
    return {
      status: candidates.length === 0 ? 'not_found' : candidates.length === 1 ? 'resolved' : 'ambiguous',
      market: market.slug,
      marketId: market.id,
      vintageId: vintage.id,
      candidates: candidates.map((row, at) => parcelCandidate(access, row, facts[at]!)),
    };
  };
}
