import type { HandlerContext } from '@connectrpc/connect';
import type { discoveryv1 } from '@landscreen/proto';
import { notFound, requireCaller } from '@landscreen/rpc';
import { candidateFacts, parcelCandidate } from '../candidates.js';
import type { DiscoveryContext } from '../context.js';
import { marketForCaller } from '../market-access.js';
import { parcelRowsByKey } from '../parcel-rows.js';
import { vintageForCaller } from '../vintage-access.js';

/** One parcel of a market's current vintage, or of a named vintage (entitlement checked), as a ParcelCandidate message. */
export function getParcelHandler(context: DiscoveryContext) {
  return async (request: discoveryv1.GetParcelRequest, call: HandlerContext) => {
    const { tenantId } = requireCaller(call);
    const access = request.vintageId ? await vintageForCaller(context, tenantId, request.vintageId) : await marketForCaller(context, tenantId, request.market);
    const row = (await parcelRowsByKey(context.db, access.vintage.id, [request.parcelKey])).get(request.parcelKey);
    const which = request.vintageId ? `vintage ${request.vintageId}` : `the current vintage of ${access.market.slug}`;
    if (!row) throw notFound('parcel_not_found', `No parcel "${request.parcelKey}" in ${which}.`);
    const index = await context.indexes.ranking(access, call);
    const [split] = await candidateFacts(index, access.vintage, [row]);
    return {
      marketId: access.market.id,
      market: access.market.slug,
      vintageId: access.vintage.id,
      parcel: parcelCandidate(access, row, split!),
    };
  };
}
