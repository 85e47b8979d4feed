import type { MessageInitShape } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { compileSpec, queryHash, type CanonicalSpec } from '@landscreen/buybox-spec';
import { type discoveryv1 } from '@landscreen/proto';
import * as discoveryjson from '@landscreen/discovery-json';
import { parseJsonBytes, requireCaller, validationError } from '@landscreen/rpc';
import type { DiscoveryContext } from '../context.js';
import { marketForCaller } from '../market-access.js';
import { decodeCursor, encodeCursor } from '../ranking/cursor.js';
import { pageAfter } from '../ranking/page.js';
import { rankSpecOf } from '../ranking/rank.js';
import { discoveryResults } from '../results.js';
import { chosenFields } from '../shown-facts.js';
import { canonicalSpecFrom } from '../spec-input.js';
import { loadBuyBox } from './buy-boxes.js';

/**
 * The spec a request applies — the caller's draft or the saved box — with the saved box itself,
 * its market, the current vintage and the query_hash (D11). A named box must exist (404) even when
 * a draft is given; the market must be entitled (403).
 */
export async function appliedSpec(context: DiscoveryContext, call: HandlerContext, buyBox: string | undefined, draftJson: Uint8Array | undefined) {
  const { tenantId } = requireCaller(call);
  const saved = buyBox === undefined ? undefined : await loadBuyBox(context, tenantId, buyBox);
  const spec = draftJson
    ? await canonicalSpecFrom(context.db, parseJsonBytes(draftJson), ['body', 'draft'])
    : (saved!.spec as CanonicalSpec);
  const access = await marketForCaller(context, tenantId, spec.markets[0]!);
  const hash = queryHash(spec, access.market.id, access.vintage.id);
  return { saved, spec, access, hash, compiled: compileSpec(spec) };
}

/** The applied spec with the vintage's index and the ranking of the whole vintage (cached per query_hash). */
export async function preparedQuery(context: DiscoveryContext, call: HandlerContext, buyBox: string | undefined, draftJson: Uint8Array | undefined) {
  const applied = await appliedSpec(context, call, buyBox, draftJson);
  const index = await context.indexes.ranking(applied.access, call);
  const ranking = await context.ranker.ranking(applied.hash, index, rankSpecOf(applied.compiled));
  return { ...applied, index, ranking };
}

/** D13-D16: one page of the market ranked against the buy box, with evidence for every rule. */
export function queryHandler(context: DiscoveryContext) {
  return async (request: discoveryv1.QueryRequest, call: HandlerContext): Promise<MessageInitShape<typeof discoveryv1.QueryResponseSchema>> => {
    const { spec, compiled, access, hash, index, ranking } = await preparedQuery(context, call, request.buyBox, request.draftJson);
    const chosen = chosenFields(request.fields, access.vintage);
    const secret = await context.cursorSecret();
    let after;
    if (request.cursor) {
      const position = decodeCursor(secret, hash, request.cursor);
      if (!position) {
        throw validationError([
          { type: 'value_error', loc: ['body', 'cursor'], msg: 'Value error, the cursor is invalid or belongs to another query', input: request.cursor, ctx: { error: 'invalid cursor' } },
        ]);
      }
      // The query_hash binds the vintage, so the cursor's parcel_key is a row of this index.
      after = { score: position.score, keyRank: index.rankOfKey(position.parcelKey) };
    }
    const limit = request.limit || 50;
    const page = pageAfter(index, ranking, limit, after);
    const results = await discoveryResults(context.db, index, access.vintage, compiled, page.rows, chosen);
    const last = page.rows.at(-1);
    const nextCursor =
      page.remaining > 0 && last !== undefined
        ? encodeCursor(secret, hash, { score: page.scores.at(-1)!, parcelKey: index.keys.at(last)! })
        : null;
    return {
      market: access.market.slug,
      marketId: access.market.id,
      vintageId: access.vintage.id,
      queryHash: hash,
      appliedSpec: discoveryjson.buyBoxSpecMessage(spec),
      denominator: index.size,
      preferenceWeightTotal: compiled.preferenceWeightTotal,
      eligibleTotal: ranking.eligibleTotal,
      results,
      nextCursor: nextCursor ?? undefined,
    };
  };
}
