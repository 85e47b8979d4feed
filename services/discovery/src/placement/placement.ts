import { Code } from '@connectrpc/connect';
import { serviceError } from '@landscreen/rpc';

/** A market as placement names it. */
export interface MarketRef {
  id: string;
  slug: string;
}

/** Where a request for a market is answered. */
export type Route =
  | { local: true }
  | {
      local: false;
      /** The replica that answers it (its advertised address). */
      url: string;
      /** Until when that replica's lease runs, as last read: a retry hint if it does not answer. */
      leaseExpiresAt: Date | undefined;
    };

/** What a replica does when it gains or loses markets (load their indexes, drop them). */
export interface PlacementListener {
  gained(markets: MarketRef[]): void;
  lost(markets: MarketRef[]): void;
  /** Loads a market before it is taken over from a live replica, so the move leaves no gap. */
  preload(market: MarketRef): Promise<void>;
}

/**
 * Which markets this discovery replica holds in memory, and where a request for another market
 * goes. One replica alone holds every market (SoloPlacement); several share them by lease
 * (LeasedPlacement).
 */
export interface MarketPlacement {
  /** Where a request for `market` is answered; `forwarded`: the request was already sent on once (it is never sent on again). */
  route(market: MarketRef, forwarded: boolean): Promise<Route>;
  /** Whether this replica holds the market now. */
  holds(marketId: string): boolean;
  /** The markets to load at start (undefined: every current one). */
  held(): MarketRef[] | undefined;
  listen(listener: PlacementListener): void;
  /** Reads the placement again now (a holder did not answer: it may have left). */
  refresh(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Where this replica is reached (undefined when it runs alone, in-process). */
  readonly url: string | undefined;
}

/** The embedded default and a single process: this replica holds every market. */
export class SoloPlacement implements MarketPlacement {
  readonly url = undefined;
  async route(): Promise<Route> {
    return { local: true };
  }
  holds(): boolean {
    return true;
  }
  held(): undefined {
    return undefined;
  }
  listen(): void {}
  async refresh(): Promise<void> {}
  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}

/**
 * 503 `market_moving` with Retry-After: no replica can answer this market right now (its holder
 * stopped answering and its lease has not lapsed yet, or nobody has taken it over yet). Never a
 * wrong or partial answer instead.
 */
export function marketMoving(market: MarketRef, retryAfterSeconds: number) {
  return serviceError(Code.Unavailable, 'market_moving', `Market "${market.slug}" is moving to another discovery replica; retry shortly.`, {
    retry_after_seconds: Math.max(1, Math.ceil(retryAfterSeconds)),
  });
}
