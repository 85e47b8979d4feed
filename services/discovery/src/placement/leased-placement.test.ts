// The placement rules on both engines: replicas heartbeat their lease into the discovery schema,
// share the markets as rendezvous hashing says, take over a dead replica's markets once its lease
// lapses, move markets to a replica that joins (after it has been up a whole lease, each loaded
// before it is taken), and never move anything else. Time is a hand-moved clock: a lease lapses
// because the clock says so, not because the test waits.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, ManualClock, readServiceError } from '@landscreen/rpc';
import type { DatabaseHandle } from '@landscreen/db';
import { createTestPGlite, createTestPostgres } from '@landscreen/testing';
import { discoveryDb, type DiscoveryDb } from '../schema.js';
import { LeasedPlacement } from './leased-placement.js';
import type { MarketRef } from './placement.js';
import { claimMarket, heartbeat, readPlacement } from './placement-store.js';
import { desiredReplica } from './rendezvous.js';

const LEASE_MS = 10_000;
const MARKETS = 24;

class Replica {
  readonly placement: LeasedPlacement;
  readonly preloaded: string[] = [];
  readonly lost: string[] = [];

  constructor(
    readonly id: string,
    db: DiscoveryDb,
    clock: ManualClock,
  ) {
    this.placement = new LeasedPlacement({ db, clock, logger: createLogger('silent'), self: { id, weight: 1, url: () => `http://${id}:8102` }, leaseMs: LEASE_MS });
    this.placement.listen({
      gained: () => undefined,
      lost: (markets) => this.lost.push(...markets.map((market) => market.slug)),
      preload: async (market) => void this.preloaded.push(market.slug),
    });
  }

  async beat(): Promise<void> {
    await this.placement.tick();
    await this.placement.idle();
  }
}

describe.each([
  ['pglite', createTestPGlite],
  ['postgres', createTestPostgres],
])('discovery placement on %s', (_mode, open) => {
  let handle: DatabaseHandle;
  let db: DiscoveryDb;
  const markets: MarketRef[] = [];
  const clock = new ManualClock(new Date('2026-12-01T00:00:00Z'));

  beforeAll(async () => {
    handle = await open();
    db = discoveryDb(handle.db);
    for (let i = 0; i < MARKETS; i++) {
      const slug = `place-${String(i).padStart(2, '0')}`;
      const market = await db.insertInto('markets').values({ slug, name: slug }).returning('id').executeTakeFirstOrThrow();
      const vintage = await db.insertInto('vintages').values({ market_id: market.id, source: 'test', status: 'ready', parcel_count: 10 }).returning('id').executeTakeFirstOrThrow();
      await db.updateTable('markets').set({ current_vintage_id: vintage.id }).where('id', '=', market.id).execute();
      markets.push({ id: market.id, slug });
    }
    // A market with nothing loaded is never placed: there is nothing to hold.
    await db.insertInto('markets').values({ slug: 'place-empty', name: 'empty' }).execute();
  });

  afterAll(async () => {
    await handle?.close();
  });

  const owners = async () => (await readPlacement(db)).owners;
  const desiredAmong = (ids: string[]) => new Map(markets.map((market) => [market.id, desiredReplica(market.id, ids.map((id) => ({ id, weight: 1 })))!]));
  const after = (ms: number) => clock.advance(ms);

  it('spreads the markets, takes a dead replica’s over, moves markets to a replica that joins, and nothing else', async () => {
    const [a, b, c] = ['replica-a', 'replica-b', 'replica-c'].map((id) => new Replica(id, db, clock));
    // A alone: it holds every placed market (and not the empty one).
    await a!.beat();
    expect([...(await owners()).values()].every((owner) => owner === 'replica-a')).toBe(true);
    expect((await owners()).size).toBe(MARKETS);

    // B and C join: until they have been up a whole lease they take nothing from a live replica.
    await b!.beat();
    await c!.beat();
    expect(new Set((await owners()).values())).toEqual(new Set(['replica-a']));
    after(LEASE_MS / 2);
    for (const replica of [a!, b!, c!]) await replica.beat();
    expect(new Set((await owners()).values())).toEqual(new Set(['replica-a']));
    after(LEASE_MS / 2);
    for (const replica of [a!, b!, c!]) await replica.beat();
    // Each took over, loaded first, exactly the markets rendezvous hashing puts on it.
    const three = desiredAmong(['replica-a', 'replica-b', 'replica-c']);
    expect(await owners()).toEqual(three);
    expect(b!.preloaded.sort()).toEqual(markets.filter((market) => three.get(market.id) === 'replica-b').map((market) => market.slug));
    await a!.beat();
    expect(a!.lost.sort()).toEqual(markets.filter((market) => three.get(market.id) !== 'replica-a').map((market) => market.slug));
    for (const market of markets) expect(a!.placement.holds(market.id)).toBe(three.get(market.id) === 'replica-a');
    expect(new Set(three.values()).size).toBe(3);

    // No flapping: more heartbeats move nothing.
    for (let round = 0; round < 3; round++) {
      after(LEASE_MS / 5);
      for (const replica of [a!, b!, c!]) await replica.beat();
    }
    expect(await owners()).toEqual(three);

    // C dies (no more heartbeats, no goodbye). Within its lease its markets stay with it…
    after(LEASE_MS / 2);
    await a!.beat();
    await b!.beat();
    expect(await owners()).toEqual(three);
    // …once it lapsed, the survivors take them (each the ones it wins), and only those move.
    after(LEASE_MS / 2 + 1);
    await a!.beat();
    await b!.beat();
    const two = desiredAmong(['replica-a', 'replica-b']);
    expect(await owners()).toEqual(two);
    for (const market of markets) if (three.get(market.id) !== 'replica-c') expect(two.get(market.id)).toBe(three.get(market.id));
    expect((await readPlacement(db)).replicas.map((replica) => replica.id)).toEqual(['replica-a', 'replica-b']);

    // D joins: after a lease it takes its share, from both, and nothing else moves.
    const d = new Replica('replica-d', db, clock);
    await d.beat();
    after(LEASE_MS / 2);
    for (const replica of [a!, b!, d]) await replica.beat();
    expect(await owners()).toEqual(two);
    after(LEASE_MS / 2);
    for (const replica of [a!, b!, d]) await replica.beat();
    for (const replica of [a!, b!]) await replica.beat();
    const withD = desiredAmong(['replica-a', 'replica-b', 'replica-d']);
    expect(await owners()).toEqual(withD);
    const moved = markets.filter((market) => withD.get(market.id) !== two.get(market.id));
    expect(moved.length).toBeGreaterThan(0);
    expect(moved.every((market) => withD.get(market.id) === 'replica-d')).toBe(true);

    // A stops cleanly: its markets are free at once, and whoever they belong on takes one when asked.
    await a!.placement.stop();
    const freed = markets.filter((market) => withD.get(market.id) === 'replica-a');
    expect(freed.length).toBeGreaterThan(0);
    expect([...(await owners()).keys()].some((id) => freed.some((market) => market.id === id))).toBe(false);
    await b!.beat();
    await d.beat();
    expect(await owners()).toEqual(desiredAmong(['replica-b', 'replica-d']));
    for (const replica of [b!, d]) await replica.placement.stop();
  });

  it('answers where a market is held: here, at its live holder, or 503 market_moving while nobody can', async () => {
    const [e, f] = ['replica-e', 'replica-f'].map((id) => new Replica(id, db, clock));
    await e!.beat();
    await f!.beat();
    // E came first and holds everything; F has not been up a lease, so it has taken nothing.
    const held = await owners();
    const onE = markets.find((market) => held.get(market.id) === 'replica-e')!;
    expect(await e!.placement.route(onE, false)).toEqual({ local: true });
    expect(await f!.placement.route(onE, false)).toMatchObject({ local: false, url: 'http://replica-e:8102' });
    // A request already sent on once is never sent on again: it is refused with a retry hint.
    const refusal = readServiceError(await f!.placement.route(onE, true).catch((error) => error));
    expect(refusal.reason).toBe('market_moving');
    expect(refusal.fields.retry_after_seconds).toBeGreaterThanOrEqual(1);

    // E dies; after its lease, a request at F for one of E's markets is answered at F, which claims it.
    after(LEASE_MS / 2);
    await f!.beat();
    after(LEASE_MS / 2 + 1);
    const route = await f!.placement.route(onE, false);
    expect(route).toEqual({ local: true });
    expect((await owners()).get(onE.id)).toBe('replica-f');
    await f!.placement.stop();
    await e!.placement.stop();
  });

  it('lets exactly one of several replicas claim a free market at once, and only a live one', async () => {
    const market = markets[0]!;
    const now = clock.now();
    await db.deleteFrom('market_owners').execute();
    const ids = ['claim-1', 'claim-2', 'claim-3', 'claim-4'];
    for (const id of ids) await heartbeat(db, { id, url: `http://${id}`, weight: 1 }, now, LEASE_MS);
    const won = await Promise.all(ids.map((id) => claimMarket(db, market.id, id, now)));
    expect(won.filter(Boolean)).toHaveLength(1);
    const winner = ids[won.indexOf(true)]!;
    expect((await owners()).get(market.id)).toBe(winner);
    // A live holder keeps it; once its lease lapsed, another live replica may claim it.
    expect(await claimMarket(db, market.id, ids.find((id) => id !== winner)!, now)).toBe(false);
    const later = new Date(now.getTime() + LEASE_MS + 1);
    await heartbeat(db, { id: 'claim-late', url: 'http://late', weight: 1 }, later, LEASE_MS);
    expect(await claimMarket(db, market.id, 'claim-late', later)).toBe(true);
    // A replica whose own lease lapsed claims nothing.
    expect(await claimMarket(db, markets[1]!.id, winner, later)).toBe(false);
    await db.deleteFrom('replicas').execute();
  });
});
