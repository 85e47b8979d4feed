import type { ProcessDatabase } from '@landscreen/db';
import { createRelayLoop, type EventBus, type RelayLoop } from '@landscreen/events';
import type { FaultInjector, Logger } from '@landscreen/rpc';
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
  db: ProcessDatabase;
  bus: EventBus;
  logger: Logger;
  faults?: FaultInjector;
}

export type OutboxRelay = RelayLoop;

/**
 * The outbox relay (D27): publishes unpublished outbox rows to their stream (`DILIGENCE` by
 * default; the pipeline's outbox feeds `LEADS`, D30) and marks them published, on the polling
 * loop every relay shares (`createRelayLoop`); an idle poll is one index probe on the partial
 * `outbox_unpublished` index. Published rows older than the retention are pruned once a minute.
 */
export function createOutboxRelay(deps: OutboxRelayDeps, options: OutboxRelayOptions): OutboxRelay {
  const { db, bus, logger, faults } = deps;
  const pruneEveryMs = options.pruneEveryMs ?? 60_000;
  const outbox = options.outbox ?? DILIGENCE_OUTBOX;
  let nextPruneAt = 0;

  /** Deletes old published rows a batch at a time until a batch comes back short. */
  const prune = async (retentionHours: number, isStopping: () => boolean) => {
    let pruned = 0;
    let deleted: number;
    do {
      deleted = await pruneOutbox(db, retentionHours, PRUNE_BATCH, outbox.table);
      pruned += deleted;
    } while (deleted === PRUNE_BATCH && !isStopping());
    if (pruned > 0) logger.info({ pruned, retentionHours }, 'outbox pruned');
  };

  return createRelayLoop(
    { bus, logger },
    { ...options, stream: { name: outbox.stream, subjects: outbox.subjects }, rows: `${outbox.table} events` },
    () => relayBatch(db, bus, options.batchSize, faults, outbox.table),
    async (isStopping) => {
      // A schedule, not a recorded time: a monotonic clock. The retention cutoff itself is the
      // database's now(), the clock that stamps the outbox rows (created_at, published_at).
      if (options.retentionHours === undefined || performance.now() < nextPruneAt) return;
      nextPruneAt = performance.now() + pruneEveryMs;
      await prune(options.retentionHours, isStopping);
    },
  );
}
