import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventBus } from './bus.js';
import { connectNatsBus } from './nats-bus.js';
import { NatsServerProcess, freePort } from './test-nats-server.js';
import { sleep, waitFor } from './test-wait.js';

/**
 * Runs its own nats-server so it can crash it: the bus must fail publishes during the outage
 * (so the outbox relay retries), reconnect, and resume consuming with nothing lost or doubled.
 */
describe('nats bus across a server crash', () => {
  let server: NatsServerProcess;
  let storeDir: string;
  let bus: EventBus | undefined;

  beforeAll(async () => {
    storeDir = await mkdtemp(path.join(tmpdir(), 'events-nats-'));
    server = new NatsServerProcess(await freePort(), storeDir);
    await server.start();
  });

  afterAll(async () => {
    await server?.kill();
    await bus?.close().catch(() => undefined);
    if (storeDir) await rm(storeDir, { recursive: true, force: true });
  });

  /** What the outbox relay does: retry until the stream acks. */
  async function publishWithRetry(subject: string, id: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await (bus as EventBus).publish(subject, { id }, { id });
      } catch (error) {
        if (attempt >= 40) throw error;
        await sleep(250);
      }
    }
  }

  it('rejects publishes while the server is down and delivers everything exactly once after', async () => {
    bus = await connectNatsBus(server.url, { name: 'events-restart-test', publishTimeoutMs: 1_000, reconnectTimeWaitMs: 200 });
    await bus.ensureStream('RESTART', ['r.>']);
    const counts = new Map<string, number>();
    await bus.subscribe('RESTART', { durable: 'worker', subjects: ['r.>'], concurrency: 4 }, async (e) => {
      counts.set(e.id, (counts.get(e.id) ?? 0) + 1);
    });

    const before = ['b1', 'b2', 'b3', 'b4', 'b5'];
    for (const id of before) await bus.publish('r.event', { id }, { id });
    await waitFor(() => before.every((id) => counts.has(id)), 'events before the crash');
    // Acks are fire-and-forget; wait until the server has recorded them so the crash can't undo them.
    const admin = await connect({ servers: server.url });
    const jsm = await admin.jetstreamManager();
    await waitFor(async () => (await jsm.consumers.info('RESTART', 'worker')).ack_floor.stream_seq === 5, 'acks');
    await admin.close();
    await sleep(300); // let the file store write the consumer state before the SIGKILL

    await server.kill();
    // Rejected (after the bus's publish timeout), not left pending until the server returns.
    await expect(bus.publish('r.event', { id: 'during' }, { id: 'during' })).rejects.toThrow(/publishing r\.event \(event during\) failed/);

    await server.start();
    // The failed publish is retried with the same id, as the relay would: it must still arrive once.
    await publishWithRetry('r.event', 'during');
    const after = ['a1', 'a2', 'a3', 'a4', 'a5'];
    for (const id of after) await publishWithRetry('r.event', id);

    const all = [...before, 'during', ...after];
    await waitFor(() => all.every((id) => counts.has(id)), 'every event after the restart');
    await sleep(300);
    expect(Object.fromEntries(counts)).toEqual(Object.fromEntries(all.map((id) => [id, 1])));
    await bus.close();
    bus = undefined;
  });
});
