import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { ProcessDatabase } from '@landscreen/db';
import { createOutboxRelay } from '@landscreen/diligence-service/relay';
import { DILIGENCE_STREAM, DILIGENCE_SUBJECTS, connectNatsBus, type EventBus } from '@landscreen/events';
import { createLogger } from '@landscreen/rpc';
import { NatsServerProcess, freePort } from '../packages/events/src/test-nats-server.js';
import { percentile } from './lib/measure.js';

/** A private nats-server with JetStream on a free port and a scratch store (BENCH_NATS_URL overrides). */
export async function benchNats(): Promise<{ url: string; close(): Promise<void> }> {
  if (process.env.BENCH_NATS_URL) return { url: process.env.BENCH_NATS_URL, close: async () => {} };
  const storeDir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-bench-nats-'));
  const server = new NatsServerProcess(await freePort(), storeDir);
  await server.start();
  return {
    url: server.url,
    close: async () => {
      await server.kill();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

async function unpublished(db: ProcessDatabase): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from diligence.outbox where published_at is null`.execute(db);
  return rows[0]!.n;
}

async function streamMessages(natsUrl: string): Promise<number> {
  const { connect } = await import('nats');
  const nc = await connect({ servers: natsUrl });
  try {
    return (await (await nc.jetstreamManager()).streams.info(DILIGENCE_STREAM)).state.messages;
  } finally {
    await nc.close();
  }
}

export interface RelayFigures {
  relays: number;
  batchSize: number;
  events: number;
  seconds: number;
  eventsPerSecond: number;
  streamMessages: number;
}

/**
 * Backlog drain: `events` rows written into the outbox up front (one INSERT … SELECT), then
 * `relays` relays (each with its own NATS connection, as replicas would have) publish and mark
 * them. Timed from the relays' start until no row is unpublished.
 */
export async function drainBacklog(db: ProcessDatabase, natsUrl: string, events: number, relays: number, batchSize: number): Promise<RelayFigures> {
  await sql`truncate diligence.outbox`.execute(db);
  await sql`
    insert into diligence.outbox (subject, data)
    select 'diligence.job.created',
           jsonb_build_object('job_id', gen_random_uuid(), 'tenant_id', gen_random_uuid(), 'tenant', 'bench',
                              'property_id', gen_random_uuid(), 'pipeline_item_id', gen_random_uuid(), 'parcel_key', 'P-' || n)
    from generate_series(1, ${events}) as n`.execute(db);
  const buses: EventBus[] = [];
  for (let i = 0; i < relays; i++) buses.push(await connectNatsBus(natsUrl, { name: `bench-relay-${i}` }));
  const admin = buses[0]!;
  const before = await admin.ensureStream(DILIGENCE_STREAM, DILIGENCE_SUBJECTS).then(() => streamMessages(natsUrl));
  const logger = createLogger('warn');
  const running = buses.map((bus) => createOutboxRelay({ db, bus, logger }, { pollMs: 100, batchSize }));
  const started = performance.now();
  for (const relay of running) relay.start();
  while ((await unpublished(db)) > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  const seconds = (performance.now() - started) / 1000;
  for (const relay of running) await relay.stop();
  const stored = (await streamMessages(natsUrl)) - before;
  for (const bus of buses) await bus.close();
  return { relays, batchSize, events, seconds, eventsPerSecond: Math.round(events / seconds), streamMessages: stored };
}

/**
 * Latency of one event at a time, written while the relay idles: what a worker waits for a new
 * job. Bounded by the poll interval (RELAY_POLL_MS, 100 ms): the mean is about half of it.
 */
export async function idleLatency(db: ProcessDatabase, natsUrl: string, samples: number, pollMs: number): Promise<{ p50Ms: number; p99Ms: number }> {
  const relayBus = await connectNatsBus(natsUrl, { name: 'bench-latency-relay' });
  const consumerBus = await connectNatsBus(natsUrl, { name: 'bench-latency-consumer' });
  await relayBus.ensureStream(DILIGENCE_STREAM, DILIGENCE_SUBJECTS);
  const arrived = new Map<string, () => void>();
  const subscription = await consumerBus.subscribe(
    DILIGENCE_STREAM,
    { durable: `bench-latency-${Date.now()}`, subjects: ['diligence.job.authorized'] },
    async (event) => arrived.get(event.id)?.(),
  );
  const relay = createOutboxRelay({ db, bus: relayBus, logger: createLogger('warn') }, { pollMs, batchSize: 500 });
  relay.start();
  const timings: number[] = [];
  for (let i = 0; i < samples; i++) {
    const id = crypto.randomUUID();
    const delivered = new Promise<void>((resolve) => arrived.set(id, resolve));
    const started = performance.now();
    await sql`insert into diligence.outbox (id, subject, data) values (${id}, 'diligence.job.authorized', '{}'::jsonb)`.execute(db);
    await delivered;
    timings.push(performance.now() - started);
    // An irregular gap, so writes do not fall into step with the poll.
    await new Promise((resolve) => setTimeout(resolve, 5 + ((i * 37) % 50)));
  }
  await relay.stop();
  await subscription.stop();
  await consumerBus.close();
  await relayBus.close();
  timings.sort((a, b) => a - b);
  return { p50Ms: Math.round(percentile(timings, 0.5)), p99Ms: Math.round(percentile(timings, 0.99)) };
}
