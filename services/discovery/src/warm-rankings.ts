import { compileSpec, queryHash, type CanonicalSpec } from '@landscreen/buybox-spec';
import type { Logger } from '@landscreen/rpc';
import type { VintageFields } from './parcel-rows.js';
import { pageAfter } from './ranking/page.js';
import { rankSpecOf } from './ranking/rank.js';
import type { Ranker } from './ranking/ranker.js';
import { discoveryResults } from './results.js';
import type { DiscoveryDb } from './schema.js';

/** Saved buy boxes ranked at start, most recently saved first: a few of the ranker's 32 slots. */
const PRE_RANKED_BOXES = 8;
/** The page size a query asks for by default. */
const FIRST_PAGE = 50;

export interface CurrentMarket {
  marketId: string;
  slug: string;
  vintageId: string;
  parcelCount: number;
  fields: VintageFields;
}

/**
 * Ranks the most recently saved buy boxes over their market's current vintage, as a query would
 * (same query_hash), and reads their first page, so that the first query of a saved box after a
 * start is a cached ranking whose rows PostgreSQL has at hand, and the code of both is compiled
 * by then (cold, that first query took several times a warm one). Best effort: a box that cannot
 * be ranked is skipped.
 */
export async function rankSavedBuyBoxes(db: DiscoveryDb, ranker: Ranker, markets: CurrentMarket[], logger: Logger): Promise<number> {
  const bySlug = new Map(markets.map((market) => [market.slug, market]));
  const boxes = await db.selectFrom('buy_boxes').select(['id', 'spec']).orderBy('updated_at', 'desc').limit(PRE_RANKED_BOXES * 4).execute();
  let ranked = 0;
  for (const box of boxes) {
    const spec = box.spec as CanonicalSpec;
    const market = bySlug.get(spec.markets?.[0] ?? '');
    if (!market) continue;
    try {
      const index = await ranker.index(market.vintageId, market.marketId);
      const compiled = compileSpec(spec);
      const ranking = await ranker.ranking(queryHash(spec, market.marketId, market.vintageId), index, rankSpecOf(compiled));
      await discoveryResults(db, index, market.fields, compiled, pageAfter(index, ranking, FIRST_PAGE).rows);
      ranked += 1;
    } catch (error) {
      logger.warn({ err: error, buyBoxId: box.id }, 'could not rank a saved buy box at start');
    }
    if (ranked === PRE_RANKED_BOXES) break;
    // Each ranking holds the event loop for tens of milliseconds; let health checks through between.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return ranked;
}
