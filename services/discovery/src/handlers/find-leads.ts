import type { HandlerContext } from '@connectrpc/connect';
import type { discoveryv1 } from '@landscreen/proto';
import { jsonBytes, validationError } from '@landscreen/rpc';
import type { DiscoveryContext } from '../context.js';
import { discoveryResults } from '../results.js';
import { pageAfter } from '../ranking/page.js';
import { preparedQuery } from './query.js';

/** D29: the live match count and per-verdict split, and without count_only the ranked rows. */
export function findLeadsHandler(context: DiscoveryContext) {
  return async (request: discoveryv1.FindLeadsRequest, call: HandlerContext) => {
    if (request.buyBox === undefined && request.draftJson === undefined) {
      throw validationError([
        { type: 'value_error', loc: ['body'], msg: 'Value error, give a buy_box or a draft', input: {}, ctx: { error: 'buy_box or draft required' } },
      ]);
    }
    const { compiled, index, ranking, access } = await preparedQuery(context, call, request.buyBox, request.draftJson);
    const summary = { count: ranking.eligibleTotal, by_verdict: ranking.byVerdict };
    if (request.countOnly) return { bodyJson: jsonBytes(summary) };
    const page = pageAfter(index, ranking, Math.max(0, request.limit));
    // Leads are the ranked parcels without geometry and facts: a list to scan, not a map to draw.
    const results = (await discoveryResults(context.db, index, access.vintage, compiled, page.rows)).map(
      ({ parcel_key, apn, address, lat, lon, acres, score, verdict, review_required, unknowns }) => ({
        parcel_key,
        apn,
        address,
        lat,
        lon,
        acres,
        score,
        verdict,
        review_required,
        unknowns,
      }),
    );
    return { bodyJson: jsonBytes({ ...summary, rows: results }) };
  };
}
