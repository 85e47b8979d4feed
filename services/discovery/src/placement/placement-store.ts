import type { Expression } from 'kysely';
import type { DiscoveryDb } from '../schema.js';

/** A discovery replica as its row says. */
export interface ReplicaRow {
  id: string;
  url: string;
  weight: number;
  startedAt: Date;
  leaseExpiresAt: Date;
}

/** A market that can be placed: one with a current vintage (nothing else is ever loaded). */
export interface PlacedMarket {
  id: string;
  slug: string;
  vintageId: string;
  parcelCount: number;
}

/** Everything placement decides from, read in one go. */
export interface PlacementRows {
  replicas: ReplicaRow[];
  markets: PlacedMarket[];
  /** market id → the replica holding it. */
  owners: Map<string, string>;
}

export interface ReplicaIdentity {
  id: string;
  url: string;
  weight: number;
}

/**
 * The replica's heartbeat: its row, with the lease running `leaseMs` from `now`. A replica whose
 * row was deleted meanwhile (its lease lapsed: a long pause, a lost database) comes back as a new
 * one, with a new start and none of its markets.
 */
export async function heartbeat(db: DiscoveryDb, self: ReplicaIdentity, now: Date, leaseMs: number): Promise<ReplicaRow> {
  const leaseExpiresAt = new Date(now.getTime() + leaseMs);
  const row = await db
    .insertInto('replicas')
    .values({ id: self.id, url: self.url, weight: self.weight, started_at: now, lease_expires_at: leaseExpiresAt })
    .onConflict((conflict) =>
      conflict.column('id').doUpdateSet({ url: self.url, weight: self.weight, lease_expires_at: leaseExpiresAt }),
    )
    .returning(['started_at'])
    .executeTakeFirstOrThrow();
  return { ...self, startedAt: new Date(row.started_at), leaseExpiresAt };
}

/** Deletes the replicas whose lease lapsed before `now`; their markets are freed with them (cascade). */
export async function reapExpired(db: DiscoveryDb, now: Date): Promise<string[]> {
  const rows = await db.deleteFrom('replicas').where('lease_expires_at', '<', now).returning('id').execute();
  return rows.map((row) => row.id);
}

export async function readPlacement(db: DiscoveryDb): Promise<PlacementRows> {
  const [replicas, markets, owners] = await Promise.all([
    db.selectFrom('replicas').select(['id', 'url', 'weight', 'started_at', 'lease_expires_at']).orderBy('id').execute(),
    db
      .selectFrom('markets')
      .innerJoin('vintages', 'vintages.id', 'markets.current_vintage_id')
      .select(['markets.id', 'markets.slug', 'vintages.id as vintage_id', 'vintages.parcel_count'])
      .orderBy('markets.slug')
      .execute(),
    db.selectFrom('market_owners').select(['market_id', 'replica_id']).execute(),
  ]);
  return {
    replicas: replicas.map((row) => ({ id: row.id, url: row.url, weight: row.weight, startedAt: new Date(row.started_at), leaseExpiresAt: new Date(row.lease_expires_at) })),
    markets: markets.map((row) => ({ id: row.id, slug: row.slug, vintageId: row.vintage_id, parcelCount: Number(row.parcel_count) })),
    owners: new Map(owners.map((row) => [row.market_id, row.replica_id])),
  };
}

/** The replica holding one market, with its lease (undefined: nobody). */
export async function ownerOf(db: DiscoveryDb, marketId: string): Promise<ReplicaRow | undefined> {
  const row = await db
    .selectFrom('market_owners')
    .innerJoin('replicas', 'replicas.id', 'market_owners.replica_id')
    .select(['replicas.id', 'replicas.url', 'replicas.weight', 'replicas.started_at', 'replicas.lease_expires_at'])
    .where('market_owners.market_id', '=', marketId)
    .executeTakeFirst();
  return row && { id: row.id, url: row.url, weight: row.weight, startedAt: new Date(row.started_at), leaseExpiresAt: new Date(row.lease_expires_at) };
}

/**
 * Takes a market nobody holds, or whose holder's lease lapsed before `now`, for `replicaId` — one
 * conditional statement, so of replicas claiming at once exactly one wins. Only a replica whose
 * own lease runs may claim. True when this call took it.
 */
export async function claimMarket(db: DiscoveryDb, marketId: string, replicaId: string, now: Date): Promise<boolean> {
  // The replica named whose lease still runs at `now` (a subquery of the claim).
  const liveReplica = (replica: Expression<string>) =>
    db
      .selectFrom('replicas')
      .select((eb) => eb.lit(1).as('live'))
      .where('replicas.id', '=', replica)
      .where('replicas.lease_expires_at', '>=', (eb) => eb.cast<Date>(eb.val(now), 'timestamptz'));
  const rows = await db
    .insertInto('market_owners')
    .columns(['market_id', 'replica_id', 'since'])
    .expression(
      db
        .selectNoFrom((eb) => [eb.cast<string>(eb.val(marketId), 'uuid').as('market_id'), eb.val(replicaId).as('replica_id'), eb.cast<Date>(eb.val(now), 'timestamptz').as('since')])
        .where((eb) => eb.exists(liveReplica(eb.val(replicaId)))),
    )
    .onConflict((oc) =>
      oc
        .column('market_id')
        .doUpdateSet((eb) => ({ replica_id: eb.ref('excluded.replica_id'), since: eb.ref('excluded.since') }))
        .where((eb) => eb.not(eb.exists(liveReplica(eb.ref('market_owners.replica_id'))))),
    )
    .returning('replica_id')
    .execute();
  return rows.length === 1;
}

/**
 * Moves a market from the live replica `from` to `to` (a rebalance, once `to` has loaded it): only
 * if `from` still holds it, so a market is never taken from a holder other than the one decided on.
 */
export async function takeMarket(db: DiscoveryDb, marketId: string, from: string, to: string, now: Date): Promise<boolean> {
  const rows = await db
    .updateTable('market_owners')
    .set({ replica_id: to, since: now })
    .where('market_id', '=', marketId)
    .where('replica_id', '=', from)
    .returning('market_id')
    .execute();
  return rows.length === 1;
}

/** A replica stopping: its row goes, and with it its markets, which the others claim at once. */
export async function leave(db: DiscoveryDb, replicaId: string): Promise<void> {
  await db.deleteFrom('replicas').where('id', '=', replicaId).execute();
}
