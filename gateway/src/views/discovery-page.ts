import { type discoveryv1 } from '@landscreen/proto';
import * as discoveryjson from '@landscreen/discovery-json';

const { JsonChunks, buyBoxSpecJson, writeDiscoveryResult } = discoveryjson;

/**
 * The DiscoveryQueryResponse of a Query answer (D13-D16): written as text in a plain loop, each
 * result's facts, provenance and geometry spliced in as the service encoded them.
 */
export function discoveryPageJson(page: discoveryv1.QueryResponse): Uint8Array {
  const out = new JsonChunks().write(
    `{"market":${JSON.stringify(page.market)},"market_id":${JSON.stringify(page.marketId)},"vintage_id":${JSON.stringify(page.vintageId)},` +
      `"query_hash":${JSON.stringify(page.queryHash)},"applied_spec":${buyBoxSpecJson(page.appliedSpec)},"denominator":${page.denominator},` +
      `"preference_weight_total":${JSON.stringify(page.preferenceWeightTotal)},"eligible_total":${page.eligibleTotal},"results":[`,
  );
  for (let at = 0; at < page.results.length; at++) {
    if (at > 0) out.write(',');
    writeDiscoveryResult(out, page.results[at]!, { geometry: true });
  }
  out.write(`],"next_cursor":${page.nextCursor === undefined ? 'null' : JSON.stringify(page.nextCursor)}}`);
  return out.bytes();
}
