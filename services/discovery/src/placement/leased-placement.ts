import type { Clock, Logger } from '@landscreen/rpc';
import type { DiscoveryDb } from '../schema.js';
import { marketMoving, type MarketPlacement, type MarketRef, type PlacementListener, type Route } from './placement.js';
import {
  claimMarket,
  heartbeat,
  leave,
  ownerOf,
  readPlacement,
  reapExpired,
  takeMarket,
  type PlacedMarket,
  type ReplicaIdentity,
  type ReplicaRow,
} from './placement-store.js';
import { desiredReplica } from './rendezvous.js';

/** Heartbeats per lease: a replica misses four before it loses its markets. */
const BEATS_PER_LEASE = 5;

export interface LeasedPlacementOptions {
  db: DiscoveryDb;
  clock: Clock;
  logger: Logger;
  /** Its id, its weight, and where it is reached (known once the process listens: read at each heartbeat). */
  self: { id: string; weight: number; url(): string };
  leaseMs: number;
}

/** What this replica last read of the placement rows. */
interface View {
  replicas: Map<string, ReplicaRow>;
  markets: Map<string, PlacedMarket>;
  owners: Map<string, string>;
}

/**
 * Markets shared among discovery replicas by lease, in PostgreSQL (placement-store.ts). Each
 * replica renews its own lease every fifth of it; every heartbeat it deletes the replicas whose
 * lease lapsed (freeing their markets), claims the free markets that rendezvous hashing puts on it,
 * and, once it has been up a whole lease (so a replica that keeps crashing never pulls markets
 * about), takes over from a live replica the markets that now belong on it: one at a time, each
 * loaded before it is taken, so a move leaves no moment without a replica ready to answer. The
 * replica giving one up notices at its next heartbeat and drops it. Two replicas may both answer a
 * market for that moment; they answer alike, since vintages never change.
 */
export class LeasedPlacement implements MarketPlacement {
  private view: View = { replicas: new Map(), markets: new Map(), owners: new Map() };
  private readonly holding = new Map<string, MarketRef>();
  private listener: PlacementListener | undefined;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private moving: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly options: LeasedPlacementOptions) {}

  get url(): string {
    return this.options.self.url();
  }

  get replicaId(): string {
    return this.options.self.id;
  }

  private get heartbeatMs(): number {
    return Math.max(100, Math.floor(this.options.leaseMs / BEATS_PER_LEASE));
  }

  listen(listener: PlacementListener): void {
    this.listener = listener;
  }

  holds(marketId: string): boolean {
    return this.holding.has(marketId);
  }

  held(): MarketRef[] {
    return [...this.holding.values()];
  }

  /** Registers, takes this replica's share of the free markets, then beats in the background. */
  async start(): Promise<void> {
    await this.tick();
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking?.catch(() => undefined);
    await this.moving?.catch(() => undefined);
    // Its markets are free at once: the others claim them at their next heartbeat, or when asked.
    await leave(this.options.db, this.replicaId).catch((error) => this.options.logger.warn({ err: error }, 'could not leave the discovery placement'));
  }

  refresh(): Promise<void> {
    return this.tick();
  }

  /** One heartbeat now (tests, and start). */
  tick(): Promise<void> {
    return (this.ticking ??= this.beat().finally(() => (this.ticking = undefined)));
  }

  /** Resolves once the heartbeat and the takeovers under way are done (tests, benchmarks). */
  async idle(): Promise<void> {
    while (this.ticking || this.moving) {
      await this.ticking?.catch(() => undefined);
      await this.moving?.catch(() => undefined);
    }
  }

  async route(market: MarketRef, forwarded: boolean): Promise<Route> {
    if (this.holding.has(market.id)) return { local: true };
    const now = this.options.clock.now();
    const retry = this.heartbeatMs / 1000;
    const ownerId = this.view.owners.get(market.id);
    const owner = ownerId === undefined ? undefined : this.view.replicas.get(ownerId);
    if (owner && owner.id !== this.replicaId && owner.leaseExpiresAt >= now) {
      if (forwarded) throw marketMoving(market, retry);
      return { local: false, url: owner.url, leaseExpiresAt: owner.leaseExpiresAt };
    }
    // Nobody live holds it as far as this replica last read: whoever it belongs on claims it now.
    const desired = desiredReplica(market.id, this.liveReplicas(now));
    if (desired === this.replicaId) {
      if (await claimMarket(this.options.db, market.id, this.replicaId, now)) {
        this.gain([market]);
        return { local: true };
      }
      const winner = await ownerOf(this.options.db, market.id);
      if (winner && winner.id !== this.replicaId && winner.leaseExpiresAt >= now && !forwarded) {
        return { local: false, url: winner.url, leaseExpiresAt: winner.leaseExpiresAt };
      }
      throw marketMoving(market, retry);
    }
    const target = desired === undefined ? undefined : this.view.replicas.get(desired);
    if (!target || forwarded) throw marketMoving(market, owner ? Math.max(retry, (owner.leaseExpiresAt.getTime() - now.getTime()) / 1000 + retry) : retry);
    // Sent to the replica it belongs on, which claims it when the request arrives.
    return { local: false, url: target.url, leaseExpiresAt: target.leaseExpiresAt };
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.tick().finally(() => this.schedule());
    }, this.heartbeatMs);
    this.timer.unref();
  }

  private liveReplicas(now: Date): ReplicaRow[] {
    return [...this.view.replicas.values()].filter((replica) => replica.leaseExpiresAt >= now);
  }

  private async beat(): Promise<void> {
    const { db, clock, logger, self, leaseMs } = this.options;
    if (this.stopped) return;
    try {
      const now = clock.now();
      const identity: ReplicaIdentity = { id: self.id, url: self.url(), weight: self.weight };
      const mine = await heartbeat(db, identity, now, leaseMs);
      const reaped = await reapExpired(db, now);
      if (reaped.length > 0) logger.info({ replicas: reaped }, 'discovery replicas whose lease lapsed were removed; their markets are free');
      const rows = await readPlacement(db);
      const live = rows.replicas.filter((replica) => replica.leaseExpiresAt >= now);
      const liveIds = new Set(live.map((replica) => replica.id));
      for (const market of rows.markets) {
        const owner = rows.owners.get(market.id);
        if (owner !== undefined && liveIds.has(owner)) continue;
        if (desiredReplica(market.id, live) !== this.replicaId) continue;
        if (await claimMarket(db, market.id, this.replicaId, now)) rows.owners.set(market.id, this.replicaId);
      }
      this.view = { replicas: new Map(rows.replicas.map((row) => [row.id, row])), markets: new Map(rows.markets.map((row) => [row.id, row])), owners: rows.owners };
      this.reconcile(rows);
      if (!this.moving && now.getTime() - mine.startedAt.getTime() >= leaseMs) {
        const moves = rows.markets.filter((market) => {
          const owner = rows.owners.get(market.id);
          return owner !== undefined && owner !== this.replicaId && liveIds.has(owner) && desiredReplica(market.id, live) === this.replicaId;
        });
        if (moves.length > 0) this.moving = this.takeOver(moves).finally(() => (this.moving = undefined));
      }
    } catch (error) {
      // The markets held stay held (their answers do not depend on the lease); the next beat retries.
      logger.warn({ err: error }, 'discovery placement heartbeat failed');
    }
  }

  /** Holds exactly the markets the rows give this replica: what another took, or the cascade freed, is dropped. */
  private reconcile(rows: { markets: PlacedMarket[]; owners: Map<string, string> }): void {
    const mine = rows.markets.filter((market) => rows.owners.get(market.id) === this.replicaId).map(({ id, slug }) => ({ id, slug }));
    const gained = mine.filter((market) => !this.holding.has(market.id));
    const ids = new Set(mine.map((market) => market.id));
    const lost = [...this.holding.values()].filter((market) => !ids.has(market.id));
    for (const market of lost) this.holding.delete(market.id);
    if (lost.length > 0) {
      this.options.logger.info({ markets: lost.map((market) => market.slug) }, 'discovery markets moved to other replicas');
      this.listener?.lost(lost);
    }
    this.gain(gained);
  }

  private gain(markets: MarketRef[]): void {
    const fresh = markets.filter((market) => !this.holding.has(market.id));
    if (fresh.length === 0) return;
    for (const market of fresh) this.holding.set(market.id, market);
    this.options.logger.info({ markets: fresh.map((market) => market.slug) }, 'discovery markets taken on by this replica');
    this.listener?.gained(fresh);
  }

  /** Takes markets over from live replicas one at a time, each loaded first (no gap, one load at a time). */
  private async takeOver(markets: PlacedMarket[]): Promise<void> {
    const { db, clock, logger } = this.options;
    for (const market of markets) {
      if (this.stopped) return;
      const from = this.view.owners.get(market.id);
      if (from === undefined || from === this.replicaId) continue;
      // The replicas may have changed since the heartbeat that chose the move.
      if (desiredReplica(market.id, this.liveReplicas(clock.now())) !== this.replicaId) continue;
      const ref = { id: market.id, slug: market.slug };
      try {
        await this.listener?.preload(ref);
        if (await takeMarket(db, market.id, from, this.replicaId, clock.now())) {
          this.view.owners.set(market.id, this.replicaId);
          this.gain([ref]);
        } else {
          this.listener?.lost([ref]);
        }
      } catch (error) {
        logger.warn({ err: error, market: market.slug }, 'could not take a discovery market over');
        if (!this.holding.has(market.id)) this.listener?.lost([ref]);
      }
    }
  }
}
