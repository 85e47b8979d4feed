import type { HandlerContext } from '@connectrpc/connect';
import type { discoveryv1 } from '@landscreen/proto';
import { jsonBytes, validationError } from '@landscreen/rpc';
import type { DiscoveryContext } from '../context.js';
import { factsOf, parcelRowsByKey } from '../parcel-rows.js';
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
    const { compiled, index, ranking } = await preparedQuery(context, call, request.buyBox, request.draftJson);
    const summary = { count: ranking.eligibleTotal, by_verdict: ranking.byVerdict };
    if (request.countOnly) return { bodyJson: jsonBytes(summary) };
    const page = pageAfter(index, ranking, Math.max(0, request.limit));
    const rows = await parcelRowsByKey(context.db, index.vintageId, page.rows.map((row) => index.keys[row]!));
    const results = page.rows.map((indexRow) => {
      const row = rows.get(index.keys[indexRow]!)!;
      const facts = factsOf(row);
      const evaluation = compiled.evaluate((field) => facts[field]);
      return {
        parcel_key: row.parcel_key,
        apn: row.apn,
        address: row.address,
        lat: row.lat,
        lon: row.lon,
        acres: row.acres,
        score: evaluation.score,
        verdict: evaluation.verdict,
        review_required: evaluation.reviewRequired,
        unknowns: evaluation.unknowns,
      };
    });
    return { bodyJson: jsonBytes({ ...summary, rows: results }) };
  };
}
