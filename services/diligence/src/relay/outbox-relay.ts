import type { Kysely } from 'kysely';
import type { EventBus } from '@landscreen/events';
import type { FaultInjector, Logger } from '@landscreen/rpc';
import { backoffMs } from './backoff.js';
import { DILIGENCE_OUTBOX, type OutboxTable } from './outbox-table.js';
import { PRUNE_BATCH, pruneOutbox } from './prune.js';
import { relayBatch } from './relay-batch.js';

export interface OutboxRelayOptions {
  /** Pause between polls while the outbox is empty: the worst-case delay of a new event. */
  pollMs: number;
  /** Events claimed, published and marked per transaction. */
  batchSize: number;
  /** Published events older than this are deleted from the outbox; undefined keeps them all. */
  retentionHours?: number;
  /** How often the relay prunes the outbox (default once a minute). */
  pruneEveryMs?: number;
  /** First pause after a failure (NATS away, database away); doubles up to `maxBackoffMs`. */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  /** The outbox table and the stream it feeds; the diligence outbox by default. */
  outbox?: OutboxTable;
}

export interface OutboxRelayDeps {
  db: Kysely<any>;
  bus: EventBus;
  logger: Logger;
  faults?: FaultInjector;
}

export interface OutboxRelay {
  /** Starts the background loop; resolves at once (the loop retries on its own). */
  start(): void;
  /** Stops polling and waits for the batch in hand to commit or roll back. */
  stop(): Promise<void>;
}

/**
 * The outbox relay (D27): publishes unpublished outbox rows to their stream (`DILIGENCE` by
 * default; the pipeline's outbox feeds `LEADS`, D30) and marks them published. It polls: a full
 * batch is followed at once by the next, an empty outbox by a pause of `pollMs`. Polling works the
 * same on PostgreSQL and PGlite and for events written by any process (promotion writes them from
 * the pipeline service); an idle poll is one index probe on the partial `outbox_unpublished` index. When publishing fails, the rows stay
 * unpublished and the relay backs off and retries; nothing is lost while NATS is away.
 */
export function createOutboxRelay(deps: OutboxRelayDeps, options: OutboxRelayOptions): OutboxRelay {
  const { db, bus, logger, faults } = deps;
  const baseBackoff = options.baseBackoffMs ?? 100;
  const maxBackoff = options.maxBackoffMs ?? 5_000;
  const pruneEveryMs = options.pruneEveryMs ?? 60_000;
  const outbox = options.outbox ?? DILIGENCE_OUTBOX;
  let nextPruneAt = 0;
  let stopping = false;
  let running: Promise<void> | undefined;
  /** Ends the current pause early (stop() does, so it never waits out a poll). */
  let wakeUp: (() => void) | undefined;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopping) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });

  /** Deletes old published rows a batch at a time until a batch comes back short. */
  const prune = async (retentionHours: number) => {
    let pruned = 0;
    let deleted: number;
    do {
      deleted = await pruneOutbox(db, retentionHours, PRUNE_BATCH, outbox.table);
      pruned += deleted;
    } while (deleted === PRUNE_BATCH && !stopping);
    if (pruned > 0) logger.info({ pruned, retentionHours }, 'outbox pruned');
  };

  const loop = async () => {
    let streamReady = false;
    let failures = 0;
    while (!stopping) {
      let delay: number;
      try {
        // Ensured lazily and again after any failure: a NATS server restarted on an empty store
        // has lost the stream, and publishing would fail until it exists again.
        if (!streamReady) {
          await bus.ensureStream(outbox.stream, outbox.subjects);
          streamReady = true;
        }
        const published = await relayBatch(db, bus, options.batchSize, faults, outbox.table);
        if (options.retentionHours !== undefined && Date.now() >= nextPruneAt) {
          nextPruneAt = Date.now() + pruneEveryMs;
          await prune(options.retentionHours);
        }
        if (failures > 0) logger.info({ failures }, 'outbox relay recovered');
        failures = 0;
        delay = published === options.batchSize ? 0 : options.pollMs;
      } catch (error) {
        failures++;
        streamReady = false;
        delay = backoffMs(failures, baseBackoff, maxBackoff);
        // Every failure of an outage would flood the log; the first and then every tenth say enough.
        if (failures === 1 || failures % 10 === 0) logger.warn({ err: error, failures, retryInMs: delay }, 'outbox relay failed; events stay in the outbox');
      }
      if (delay > 0 && !stopping) await pause(delay);
    }
  };

  return {
    start() {
      running ??= loop();
    },
    async stop() {
      stopping = true;
      wakeUp?.();
      await running;
    },
  };
}
