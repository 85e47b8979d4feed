import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createOutboxRelay, pruneOutbox, RELAY_FAULT_AFTER_PUBLISH, type OutboxRelay } from '@landscreen/diligence-service/relay';
import { createMemoryBus, type EventBus } from '@landscreen/events';
import { createLogger } from '@landscreen/rpc';
import { createTestPostgres } from '@landscreen/testing';
import { migrateSchema, openDatabase, type DatabaseHandle } from '@landscreen/db';
import { SCHEMA, migrations } from '@landscreen/diligence-service';
import { sleep, waitFor } from '../../packages/events/src/test-wait.js';
import { connectTestBus, countDeliveries, streamMessages, waitForAckFloor, startPrivateNats, unpublishedCount, writeEvents, type PrivateNats } from './relay-harness.js';

const logger = createLogger('silent');
/** Short pauses keep the suite fast; production polls at RELAY_POLL_MS (100 ms). */
const FAST = { pollMs: 20, batchSize: 50, baseBackoffMs: 50, maxBackoffMs: 400 };

/** Every id delivered exactly once, nothing else delivered. */
function expectExactlyOnce(counts: Map<string, number>, ids: string[]): void {
  expect(counts.size).toBe(ids.length);
  expect(ids.filter((id) => counts.get(id) !== 1)).toEqual([]);
}

describe('outbox relay on PostgreSQL and NATS JetStream', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    cleanups.length = 0;
  });

  async function setUp(): Promise<{ nats: PrivateNats; database: DatabaseHandle; consumerBus: EventBus }> {
    const nats = await startPrivateNats();
    cleanups.push(() => nats.close());
    const database = await createTestPostgres();
    cleanups.push(() => database.close());
    const consumerBus = await connectTestBus(nats.url, 'consumer');
    cleanups.push(() => consumerBus.close());
    return { nats, database, consumerBus };
  }

  async function startRelay(database: DatabaseHandle, bus: EventBus, faults?: (point: string) => void): Promise<OutboxRelay> {
    const relay = createOutboxRelay({ db: database.db, bus, logger, faults }, FAST);
    relay.start();
    cleanups.push(() => relay.stop());
    return relay;
  }

  it('keeps events through a NATS outage and delivers each exactly once when it returns', async () => {
    const { nats, database, consumerBus } = await setUp();
    const relayBus = await connectTestBus(nats.url, 'relay');
    cleanups.push(() => relayBus.close());
    const { counts } = await countDeliveries(consumerBus, 'outage-counter');
    await startRelay(database, relayBus);

    const before = await writeEvents(database.db, 20, 'before');
    await waitFor(() => before.every((id) => counts.has(id)), 'events before the outage');
    // Acks are fire-and-forget: let the server store them, so the SIGKILL cannot undo them.
    await waitForAckFloor(nats.url, 'outage-counter', before.length);

    await nats.server.kill();
    const during = await writeEvents(database.db, 30, 'during');
    await sleep(600); // the relay tries and fails (publish timeout 500 ms) while NATS is down
    expect(await unpublishedCount(database.db)).toBe(30);

    await nats.server.start();
    const after = await writeEvents(database.db, 10, 'after');
    const all = [...before, ...during, ...after];
    await waitFor(() => all.every((id) => counts.has(id)), 'every event after NATS returned');
    await waitFor(async () => (await unpublishedCount(database.db)) === 0, 'all rows marked');
    await sleep(200);
    expectExactlyOnce(counts, all);
    expect(await streamMessages(nats.url)).toBe(all.length);
  });

  it('publishes a batch again after a crash between publish and mark, and it still arrives once', async () => {
    const { nats, database, consumerBus } = await setUp();
    const { counts } = await countDeliveries(consumerBus, 'crash-counter');
    const ids = await writeEvents(database.db, 40, 'crash');

    // The first relay "dies" every time it has published and before it marks: nothing is marked.
    const crashingBus = await connectTestBus(nats.url, 'crashing-relay');
    cleanups.push(() => crashingBus.close());
    let crashes = 0;
    const crashing = await startRelay(database, crashingBus, (point) => {
      if (point === RELAY_FAULT_AFTER_PUBLISH) {
        crashes++;
        throw new Error('relay crashed after publishing');
      }
    });
    await waitFor(() => crashes >= 1 && ids.every((id) => counts.has(id)), 'the published batch');
    await crashing.stop();
    expect(await unpublishedCount(database.db)).toBe(40);

    // A restarted relay publishes the same rows again under the same ids, then marks them.
    const restartedBus = await connectTestBus(nats.url, 'restarted-relay');
    cleanups.push(() => restartedBus.close());
    await startRelay(database, restartedBus);
    await waitFor(async () => (await unpublishedCount(database.db)) === 0, 'rows marked by the restarted relay');
    await sleep(300);
    expectExactlyOnce(counts, ids);
    expect(await streamMessages(nats.url)).toBe(ids.length);
  });

  it('lets two relays run at once without publishing any row twice', async () => {
    const { nats, database, consumerBus } = await setUp();
    const { counts } = await countDeliveries(consumerBus, 'pair-counter');
    const published: string[] = [];
    const counting = (bus: EventBus): EventBus => ({
      ...bus,
      publish: (subject, data, options) => {
        published.push(options.id);
        return bus.publish(subject, data, options);
      },
    });
    for (const name of ['relay-a', 'relay-b']) {
      const bus = await connectTestBus(nats.url, name);
      cleanups.push(() => bus.close());
      await startRelay(database, counting(bus));
    }
    const ids = (await Promise.all([0, 1, 2, 3].map((n) => writeEvents(database.db, 150, `writer-${n}`)))).flat();
    await waitFor(async () => ids.every((id) => counts.has(id)) && (await unpublishedCount(database.db)) === 0, 'every event');
    await sleep(200);
    expectExactlyOnce(counts, ids);
    // Skip-locked claims are disjoint: not even a de-duplicated second publish happened.
    expect(published.length).toBe(ids.length);
    expect(new Set(published).size).toBe(ids.length);
    expect(await streamMessages(nats.url)).toBe(ids.length);
  });
});

describe('outbox relay in the embedded default (PGlite, in-process bus)', () => {
  it('carries the same events on the memory bus', async () => {
    // Only the diligence schema: the relay reads nothing else, and migrating all of them is slow.
    const database = await openDatabase({});
    await migrateSchema(database.db, SCHEMA, migrations);
    const bus = createMemoryBus();
    const relay = createOutboxRelay({ db: database.db, bus, logger }, FAST);
    try {
      relay.start();
      const { counts } = await countDeliveries(bus, 'memory-counter');
      const ids = await writeEvents(database.db, 25, 'memory');
      await waitFor(() => ids.every((id) => counts.has(id)), 'events on the memory bus');
      expectExactlyOnce(counts, ids);
      expect(await unpublishedCount(database.db)).toBe(0);
    } finally {
      await relay.stop();
      await bus.close();
      await database.close();
    }
  });
});

describe.each(['pglite', 'postgres'] as const)('outbox pruning on %s', (mode) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    if (mode === 'postgres') {
      database = await createTestPostgres();
    } else {
      database = await openDatabase({});
      await migrateSchema(database.db, SCHEMA, migrations);
    }
  });
  afterAll(() => database?.close());

  const age = (ids: string[], hours: number, published: boolean) =>
    sql`update diligence.outbox set created_at = now() - make_interval(hours => ${hours}),
      published_at = ${published ? sql`now()` : sql`null`} where id = any(${ids}::uuid[])`.execute(database.db);
  const remaining = async (ids: string[]) =>
    (await sql<{ id: string }>`select id from diligence.outbox where id = any(${ids}::uuid[])`.execute(database.db)).rows.map((row) => row.id).sort();

  it('deletes published events past the retention and keeps unpublished and recent ones', async () => {
    const oldPublished = await writeEvents(database.db, 3, 'old-published');
    const oldUnpublished = await writeEvents(database.db, 2, 'old-unpublished');
    const recentPublished = await writeEvents(database.db, 2, 'recent-published');
    await age(oldPublished, 30, true);
    await age(oldUnpublished, 30, false);
    await age(recentPublished, 1, true);
    expect(await pruneOutbox(database.db, 24)).toBe(3);
    expect(await remaining([...oldPublished, ...oldUnpublished, ...recentPublished])).toEqual([...oldUnpublished, ...recentPublished].sort());
    expect(await pruneOutbox(database.db, 24)).toBe(0);
    await sql`delete from diligence.outbox`.execute(database.db);
  });

  it('looks at a bounded batch of the oldest rows per statement', async () => {
    const ids = await writeEvents(database.db, 5, 'batched');
    await age(ids, 30, true);
    expect(await pruneOutbox(database.db, 24, 2)).toBe(2);
    expect(await remaining(ids)).toHaveLength(3);
    await sql`delete from diligence.outbox`.execute(database.db);
  });

  it('is done by the relay as it runs', async () => {
    const bus = createMemoryBus();
    const relay = createOutboxRelay({ db: database.db, bus, logger }, { ...FAST, retentionHours: 24, pruneEveryMs: 20 });
    try {
      const ids = await writeEvents(database.db, 4, 'relayed');
      relay.start();
      await waitFor(async () => (await unpublishedCount(database.db)) === 0, 'events published');
      expect(await remaining(ids)).toHaveLength(4);
      await age(ids, 30, true);
      await waitFor(async () => (await remaining(ids)).length === 0, 'published events pruned');
    } finally {
      await relay.stop();
      await bus.close();
    }
  });
});
