import type { HandlerContext } from '@connectrpc/connect';
import type { ParcelIndex } from './locate/parcel-index.js';
import type { ParcelIndexes } from './locate/parcel-indexes.js';
import type { MarketVintage } from './market-vintage.js';
import { isForwarded, MarketElsewhere, markAnswered } from './placement/forward.js';
import type { MarketPlacement, MarketRef } from './placement/placement.js';
import type { Ranker } from './ranking/ranker.js';
import type { VintageIndex } from './ranking/vintage-index.js';

/**
 * The in-memory indexes of a market, on the replica that holds it. Asked on another replica, the
 * request does not load them there: MarketElsewhere is thrown and the RPC goes, whole, to the
 * holder (placement/forward.ts). Every handler that reads a market's indexes asks here, after
 * checking what needs no index (404, 403, 422 answer wherever the request lands).
 */
export class MarketIndexes {
  constructor(
    readonly placement: MarketPlacement,
    private readonly ranker: Ranker,
    private readonly parcelIndexes: ParcelIndexes,
  ) {}

  /** The vintage's ranking index, loaded here (this replica holds the market) or the request is sent on. */
  async ranking(access: MarketVintage, call: HandlerContext): Promise<VintageIndex> {
    await this.here(access.market, call);
    return this.ranker.index(access.vintage.id, access.market.id);
  }

  /** The vintage's parcel index (shapes and records), likewise. */
  async parcels(access: MarketVintage, call: HandlerContext): Promise<ParcelIndex> {
    await this.here(access.market, call);
    return this.parcelIndexes.index(access.vintage.id, access.market.id);
  }

  /** Returns when this replica answers for the market; throws MarketElsewhere (or 503 market_moving) otherwise. */
  async here(market: MarketRef, call: HandlerContext): Promise<void> {
    const route = await this.placement.route(market, isForwarded(call));
    if (!route.local) throw new MarketElsewhere(market, route);
    markAnswered(call, market, this.placement.url);
  }
}
