import type { HandlerContext } from '@connectrpc/connect';
import { specHash } from '@landscreen/buybox-spec';
import { type discoveryv1 } from '@landscreen/proto';
import * as discoveryjson from '@landscreen/discovery-json';
import { conflict, notFound } from '@landscreen/rpc';
import type { DiscoveryContext } from '../context.js';
import { parcelCandidate } from '../candidates.js';
import { parcelFacts, parcelRowsByKey } from '../parcel-rows.js';
import { discoveryResult, mustEvidence } from '../results.js';
import { appliedSpec } from './query.js';

/**
 * D19, the discovery half of a promotion: the buy box (404), the entitlement (403), the
 * query_hash recomputed on the current vintage (409 `stale_query`) or the caller's vintage checked
 * (409 `stale_vintage`), the parcel (404), then its evaluation — the same evidence discovery shows.
 * Reads only.
 */
export function evaluateParcelHandler(context: DiscoveryContext) {
  return async (request: discoveryv1.EvaluateParcelRequest, call: HandlerContext) => {
    const { saved, spec, access, hash, compiled } = await appliedSpec(context, call, request.buyBox, request.draftJson);
    if (request.queryHash !== undefined && request.queryHash !== hash) {
      throw conflict('stale_query', 'The market was re-ranked since this query: run the query again and promote from its results.', {
        query_hash: hash,
        vintage_id: access.vintage.id,
      });
    }
    if (request.vintageId !== undefined && request.vintageId !== access.vintage.id) {
      throw conflict('stale_vintage', 'A newer vintage of this market is current: resolve the parcel again.', {
        vintage_id: access.vintage.id,
      });
    }
    const index = await context.indexes.ranking(access, call);
    const row = index.rowOfKey(request.parcelKey);
    if (row === undefined) {
      throw notFound('parcel_not_found', `No parcel "${request.parcelKey}" in the current vintage of ${access.market.slug}.`);
    }
    const [parcelRows, values] = await Promise.all([parcelRowsByKey(context.db, access.vintage.id, [request.parcelKey]), index.rowValues([row])]);
    const parcelRow = parcelRows.get(request.parcelKey)!;
    const split = parcelFacts(values, row, access.vintage);
    const evaluation = compiled.evaluate((field) => split.facts[field]);
    return {
      marketId: access.market.id,
      market: access.market.slug,
      vintageId: access.vintage.id,
      queryHash: hash,
      specHash: request.draftJson ? specHash(spec) : saved!.spec_hash,
      buyBoxId: saved!.id,
      buyBox: saved!.name,
      eligible: evaluation.eligible,
      result: discoveryResult(parcelRow, split, evaluation, access.vintage),
      failed: mustEvidence(evaluation.failed),
      appliedSpec: discoveryjson.buyBoxSpecMessage(spec),
      parcel: parcelCandidate(access, parcelRow, split),
    };
  };
}
