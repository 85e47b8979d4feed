import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ProcessDatabase } from '@landscreen/db';
import { connect } from 'nats';
import { recordEvent } from '../../services/diligence/src/data-access/outbox.js';
import { diligenceDb } from '../../services/diligence/src/schema.js';
import { DILIGENCE_STREAM, DILIGENCE_SUBJECTS, connectNatsBus, diligenceSubject, type EventBus, type Subscription } from '@landscreen/events';
import { NatsServerProcess, freePort } from '../../packages/events/src/test-nats-server.js';
import { sleep, waitFor } from '../../packages/events/src/test-wait.js';

/**
 * Test support for the relay and worker suites: a private nats-server (restartable on the same
 * port and store, so it can be crashed), outbox writes as the services make them, and a counter
 * of what a durable consumer received.
 */
export interface PrivateNats {
  server: NatsServerProcess;
  url: string;
  close(): Promise<void>;
}

export async function startPrivateNats(): Promise<PrivateNats> {
  const storeDir = await mkdtemp(path.join(tmpdir(), 'landscreen-nats-'));
  const server = new NatsServerProcess(await freePort(), storeDir);
  await server.start();
  return {
    server,
    url: server.url,
    close: async () => {
      await server.kill();
      await rm(storeDir, { recursive: true, force: true });
    },
  };
}

/** A bus that gives up on a publish quickly while the server is away, as the tests want. */
export function connectTestBus(url: string, name: string): Promise<EventBus> {
  return connectNatsBus(url, { name, publishTimeoutMs: 500, reconnectTimeWaitMs: 100 });
}

/** Writes `count` events into the outbox, each in its own transaction, as state changes do. */
export async function writeEvents(db: ProcessDatabase, count: number, tag: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push(await diligenceDb(db).transaction().execute((trx) => recordEvent(trx, diligenceSubject('job', 'created'), { tag, n: i })));
  }
  return ids;
}

/** Counts deliveries per event id on a durable of the DILIGENCE stream. */
export async function countDeliveries(bus: EventBus, durable: string): Promise<{ counts: Map<string, number>; subscription: Subscription }> {
  await bus.ensureStream(DILIGENCE_STREAM, DILIGENCE_SUBJECTS);
  const counts = new Map<string, number>();
  const subscription = await bus.subscribe(DILIGENCE_STREAM, { durable, subjects: ['diligence.>'], concurrency: 64 }, async (event) => {
    counts.set(event.id, (counts.get(event.id) ?? 0) + 1);
  });
  return { counts, subscription };
}

export async function unpublishedCount(db: ProcessDatabase): Promise<number> {
  const row = await diligenceDb(db).selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).where('published_at', 'is', null).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Messages the DILIGENCE stream stores: what the relay put there, duplicates dropped. */
export async function streamMessages(url: string): Promise<number> {
  const nc = await connect({ servers: url });
  try {
    const jsm = await nc.jetstreamManager();
    return (await jsm.streams.info(DILIGENCE_STREAM)).state.messages;
  } finally {
    await nc.close();
  }
}

/**
 * Waits until the server recorded a durable's acks up to `streamSeq` and gives the file store a
 * moment to write them, so a SIGKILL afterwards does not bring those events back (acks are
 * fire-and-forget; redelivering unacked events after a crash is the consumer's at-least-once).
 */
export async function waitForAckFloor(url: string, durable: string, streamSeq: number): Promise<void> {
  const nc = await connect({ servers: url });
  try {
    const jsm = await nc.jetstreamManager();
    await waitFor(async () => (await jsm.consumers.info(DILIGENCE_STREAM, durable)).ack_floor.stream_seq >= streamSeq, 'acks');
  } finally {
    await nc.close();
  }
  await sleep(300);
}
