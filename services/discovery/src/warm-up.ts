import type { FaultInjector, Logger } from '@landscreen/rpc';
import type { ParcelIndexes } from './locate/parcel-indexes.js';
import type { IndexMemory } from './memory/index-memory.js';
import type { MarketPlacement, MarketRef } from './placement/placement.js';
import type { IndexCache } from './ranking/index-cache.js';
import type { Ranker } from './ranking/ranker.js';
import type { DiscoveryDb } from './schema.js';
import { rankSavedBuyBoxes, type CurrentMarket } from './warm-rankings.js';

const FIRST_RETRY_MS = 1000;
/** What a parcel's indexes take before any market was loaded to measure it (about what a demo parcel takes). */
const GUESSED_BYTES_PER_PARCEL = 2_000;
const LONGEST_RETRY_MS = 30_000;

export type WarmupStatus = { ready: true } | { ready: false; reason: string };

export interface WarmupOptions {
  db: DiscoveryDb;
  ranker: Ranker;
  cache?: IndexCache;
  logger: Logger;
  faults?: FaultInjector;
  /** Loaded after the ranking indexes, without holding readiness back (maps and LocateParcels need them). */
  parcelIndexes?: ParcelIndexes;
  /** Which markets this replica holds: only theirs are loaded. */
  placement: MarketPlacement;
  /** What loading stops short of: a market that would not fit is loaded when first asked for. */
  memory: IndexMemory;
}

/**
 * Loads the current vintages' ranking indexes of the markets this replica holds when the service
 * starts, as many as fit in its memory budget (and ranks the saved buy boxes over them:
 * warm-rankings.ts), and says whether that is done: until it is, the service is
 * not ready (a replica that answered the first query of a
 * million-parcel market in seconds would be taken as able to serve). A failure is reported as the
 * reason and retried with growing pauses; a database without vintages is ready at once. Vintages
 * that become current later load on first use and never make a ready replica unready: every
 * replica would leave the load balancer at the same moment.
 */
export class IndexWarmup {
  private status: WarmupStatus = { ready: false, reason: 'warming the ranking indexes' };
  private retry: NodeJS.Timeout | undefined;
  private pause = FIRST_RETRY_MS;
  private stopped = false;
  private started: Promise<void> | undefined;
  /** What one parcel's indexes took in the markets loaded so far (undefined: none yet). */
  private bytesPerParcel: number | undefined;

  constructor(private readonly options: WarmupOptions) {}

  current(): WarmupStatus {
    return this.status;
  }

  /**
   * Resolves once the vintages to warm are known (at once ready when there are none); loading goes
   * on in the background. Called by the service's start, or by the first health check of a
   * service mounted without one (the same warm-up either way).
   */
  start(): Promise<void> {
    return (this.started ??= this.attempt());
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.retry);
  }

  private async attempt(): Promise<void> {
    const { db, logger } = this.options;
    let markets: CurrentMarket[];
    let served: Set<string>;
    try {
      const all = await currentMarkets(db);
      served = new Set(all.map((market) => market.vintageId));
      markets = this.fitting(all.filter((market) => this.options.placement.holds(market.marketId)));
    } catch (error) {
      this.failed(error);
      return;
    }
    const vintageIds = markets.map((market) => market.vintageId);
    const marketOf = new Map(markets.map((market) => [market.vintageId, market.marketId]));
    if (vintageIds.length === 0) {
      this.status = { ready: true };
      return;
    }
    const started = performance.now();
    let loaded = 0;
    this.status = { ready: false, reason: `warming the ranking indexes of ${vintageIds.length} current vintage(s)` };
    logger.info({ vintages: vintageIds.length }, 'warming the ranking indexes of the current vintages (/readyz answers 200 once they are loaded)');
    const warming = async () => {
      for (const vintageId of vintageIds) {
        await this.options.faults?.('discovery.warm-up');
        await this.options.ranker.index(vintageId, marketOf.get(vintageId)!);
        this.measured(markets.find((market) => market.vintageId === vintageId)!);
        loaded += 1;
        if (!this.stopped) this.status = { ready: false, reason: `warming the ranking indexes of ${vintageIds.length} current vintage(s): ${loaded} loaded` };
      }
    };
    void warming().then(
      async () => {
        if (this.stopped) return;
        const rankings = await rankSavedBuyBoxes(db, this.options.ranker, markets, logger).catch((error) => {
          logger.warn({ err: error }, 'could not rank the saved buy boxes at start');
          return 0;
        });
        if (this.stopped) return;
        this.status = { ready: true };
        this.pause = FIRST_RETRY_MS;
        logger.info({ vintages: vintageIds.length, rankings, ms: Math.round(performance.now() - started) }, 'vintage indexes warm');
        // Every market's current vintage is still served (by this replica or another that may hand it back).
        void this.evict(served);
        void this.warmParcelIndexes(markets);
      },
      (error) => this.failed(error),
    );
  }

  private failed(error: unknown): void {
    if (this.stopped) return;
    const message = (error as Error).message;
    this.status = { ready: false, reason: `could not warm the ranking indexes (retrying in ${Math.round(this.pause / 1000)} s): ${message}` };
    this.options.logger.warn({ err: error }, 'could not warm vintage indexes');
    this.retry = setTimeout(() => void this.attempt(), this.pause);
    this.retry.unref();
    this.pause = Math.min(this.pause * 2, LONGEST_RETRY_MS);
  }

  /**
   * Loads the current vintages' parcel indexes one after another (a map's first tile then finds
   * its vintage's ready, or joins the load under way). Readiness does not wait: a replica answers
   * queries without them, and a failure here is retried by the first request that needs one.
   */
  private async warmParcelIndexes(markets: CurrentMarket[]): Promise<void> {
    const { parcelIndexes, logger, memory } = this.options;
    if (!parcelIndexes) return;
    for (const { vintageId, marketId } of markets) {
      if (this.stopped) return;
      // Its ranking index was dropped to make room: the parcel index would not fit either.
      if (!memory.holds(vintageId)) continue;
      await parcelIndexes.index(vintageId, marketId).catch((error) => logger.warn({ err: error, vintageId }, 'could not load a parcel index at start'));
    }
  }

  /**
   * Loads the indexes of markets this replica has just taken on, in the background, as many as fit
   * (the others load when first asked for); `all`: every one, whatever the budget (a market taken
   * over from a live replica is loaded before it is taken, so the move leaves no gap).
   */
  async load(refs: readonly MarketRef[], all = false): Promise<void> {
    const { db, ranker, parcelIndexes, logger } = this.options;
    const ids = new Set(refs.map((market) => market.id));
    const found = (await currentMarkets(db)).filter((market) => ids.has(market.marketId));
    for (const market of all ? found : this.fitting(found)) {
      if (this.stopped) return;
      try {
        await ranker.index(market.vintageId, market.marketId);
        await parcelIndexes?.index(market.vintageId, market.marketId);
        this.measured(market);
      } catch (error) {
        if (all) throw error;
        logger.warn({ err: error, market: market.slug }, 'could not load the indexes of a market taken on');
      }
    }
  }

  /** Learns what a parcel's indexes take from a market just loaded (its parcel index may still be loading). */
  private measured(market: CurrentMarket): void {
    const held = this.options.memory.vintages().find((vintage) => vintage.vintageId === market.vintageId);
    if (held && market.parcelCount > 0) this.bytesPerParcel = Math.max(this.bytesPerParcel ?? 0, held.bytes / market.parcelCount);
  }

  /**
   * The markets (in slug order) that fit in what the memory budget leaves, judged by their parcel
   * counts at the bytes a parcel took in the markets loaded so far (or a first guess). The first is
   * always taken when nothing is held: a replica answers its largest market alone if it must.
   */
  private fitting(markets: CurrentMarket[]): CurrentMarket[] {
    const { memory } = this.options;
    const perParcel = this.bytesPerParcel ?? GUESSED_BYTES_PER_PARCEL;
    let room = memory.budgetBytes - memory.total();
    const fitting: CurrentMarket[] = [];
    for (const market of markets) {
      if (memory.holds(market.vintageId)) continue;
      const needs = market.parcelCount * perParcel;
      if (needs > room && (fitting.length > 0 || memory.total() > 0)) continue;
      fitting.push(market);
      room -= needs;
    }
    return fitting;
  }

  /** Keeps the local cache to the vintages still served (best effort). */
  private async evict(current: Set<string>): Promise<void> {
    const { cache, db, logger } = this.options;
    if (!cache) return;
    try {
      const known = new Set((await db.selectFrom('vintages').select('id').execute()).map((row) => row.id));
      const evicted = await cache.evict(current, known);
      if (evicted.length > 0) logger.info({ evicted }, 'evicted cached vintage indexes');
    } catch (error) {
      logger.warn({ err: error }, 'could not evict cached vintage indexes');
    }
  }
}

async function currentMarkets(db: DiscoveryDb): Promise<CurrentMarket[]> {
  const rows = await db
    .selectFrom('markets')
    .innerJoin('vintages', 'vintages.id', 'markets.current_vintage_id')
    .select(['markets.id', 'markets.slug', 'vintages.id as vintage_id', 'vintages.free_fact_fields', 'vintages.derived_fields', 'vintages.parcel_count'])
    .orderBy('markets.slug')
    .execute();
  return rows.map((row) => ({
    marketId: row.id,
    slug: row.slug,
    vintageId: row.vintage_id,
    parcelCount: Number(row.parcel_count),
    fields: { freeFactFields: row.free_fact_fields ?? [], derivedFields: row.derived_fields ?? [] },
  }));
}
