// A prepare worker (`landscreen serve --prepare-worker`): a durable JetStream consumer with
// explicit acks, shared by every worker process of the deployment. Each chunk event is screened
// and written here (prepare-chunk.ts) and acked once its transaction committed. A worker killed
// mid-chunk never acks: its transaction dies with its connection, the event comes back after the
// ack wait, and whichever worker takes it writes the chunk — once, since the done row is written
// in the chunk's transaction and an advisory lock keeps two live workers off the same chunk.

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { ProcessDatabase } from '@landscreen/db';
import { discoveryDb, failPreparedJob, preparedJob, PrepareLayersChanged } from '@landscreen/discovery-service';
import type { EventBus, Subscription } from '@landscreen/events';
import type { Logger } from '@landscreen/rpc';
import { chunkPreparer, type ChunkPreparerOptions } from './prepare-chunk.js';
import { PREPARE_CHUNK_SUBJECT, PREPARE_STREAM, PREPARE_SUBJECTS, PREPARE_WORKER_DURABLE, type PrepareChunkEvent } from './subjects.js';

export interface PrepareWorkerOptions extends Omit<ChunkPreparerOptions, 'worker'> {
  db: ProcessDatabase;
  bus: EventBus;
  logger: Logger;
  /** How long a delivered chunk is this worker's before it is redelivered (a dead worker's chunk is redone after it). */
  ackWaitMs: number;
  /** A chunk failing this many times fails the job (its coordinator abandons the vintage). */
  maxAttempts?: number;
  /** Recorded with each chunk written; defaults to host, pid and a random suffix. */
  workerId?: string;
}

export interface PrepareWorker {
  readonly workerId: string;
  stop(): Promise<void>;
}

class ChunkBusy extends Error {
  constructor(event: PrepareChunkEvent) {
    super(`chunk ${event.chunk} of vintage ${event.vintage_id} is being written by another worker`);
    this.name = 'ChunkBusy';
  }
}

export async function startPrepareWorker(options: PrepareWorkerOptions): Promise<PrepareWorker> {
  const { bus, logger } = options;
  const workerId = options.workerId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const discovery = discoveryDb(options.db);
  const prepare = chunkPreparer(options.db, { ...options, worker: workerId });
  const maxAttempts = options.maxAttempts ?? 10;
  await bus.ensureStream(PREPARE_STREAM, PREPARE_SUBJECTS);
  const subscription: Subscription = await bus.subscribe(
    PREPARE_STREAM,
    // One chunk at a time: the engine is this process's one core; more processes, more chunks.
    { durable: PREPARE_WORKER_DURABLE, subjects: [PREPARE_CHUNK_SUBJECT], concurrency: 1, ackWaitMs: options.ackWaitMs },
    async (event) => {
      const data = (event.data ?? {}) as Partial<PrepareChunkEvent>;
      if (typeof data.vintage_id !== 'string' || typeof data.chunk !== 'number') {
        logger.warn({ event: event.id }, 'prepare chunk event without a vintage or chunk number; skipped');
        return;
      }
      const chunk = data as PrepareChunkEvent;
      const job = await preparedJob(discovery, chunk.vintage_id);
      // Finished, abandoned or failed: nothing left to write.
      if (!job || job.error) return;
      const log = logger.child({ vintage: chunk.vintage_id, chunk: chunk.chunk });
      let outcome;
      try {
        outcome = await prepare(job, chunk.chunk, () => log.info({ workerId, delivery: event.deliveryCount }, 'prepare chunk started'));
      } catch (error) {
        if (error instanceof PrepareLayersChanged) {
          log.error({ err: error }, 'the layers changed while the prepare ran; the prepare fails');
          await failPreparedJob(discovery, chunk.vintage_id, error.message);
          return;
        }
        if (event.deliveryCount >= maxAttempts) {
          log.error({ err: error, attempts: event.deliveryCount }, 'a prepare chunk keeps failing; the prepare fails');
          await failPreparedJob(discovery, chunk.vintage_id, `chunk ${chunk.chunk} failed ${event.deliveryCount} times: ${(error as Error).message}`);
          return;
        }
        log.warn({ err: error }, 'prepare chunk not written; it will be redelivered');
        throw error;
      }
      // Another live worker writes it: asked again later, as that worker may yet die.
      if (outcome === 'busy') throw new ChunkBusy(chunk);
      log.info({ workerId, outcome }, 'prepare chunk settled');
    },
  );
  logger.info({ workerId, ackWaitMs: options.ackWaitMs }, 'prepare worker is up');
  return { workerId, stop: () => subscription.stop() };
}
