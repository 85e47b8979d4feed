import type { Kysely } from 'kysely';
import { DILIGENCE_STREAM, DILIGENCE_SUBJECTS, type EventBus } from '@landscreen/events';
import type { FaultInjector, Logger } from '@landscreen/rpc';
import { backoffMs } from './backoff.js';
import { relayBatch } from './relay-batch.js';

export interface OutboxRelayOptions {
  /** Pause between polls while the outbox is empty: the worst-case delay of a new event. */
  pollMs: number;
  /** Events claimed, published and marked per transaction. */
  batchSize: number;
  /** First pause after a failure (NATS away, database away); doubles up to `maxBackoffMs`. */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
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
  /** Polls now instead of at the end of the current pause. */
  wake(): void;
  /** Stops polling and waits for the batch in hand to commit or roll back. */
  stop(): Promise<void>;
}

/**
 * The diligence outbox relay (D27): publishes unpublished outbox rows to the `DILIGENCE` stream
 * and marks them published. It polls: a full batch is followed at once by the next, an empty
 * outbox by a pause of `pollMs`. Polling works the same on PostgreSQL and PGlite and for events
 * written by any process (promotion writes them from the pipeline service); an idle poll is one
 * index probe on the partial `outbox_unpublished` index. When publishing fails, the rows stay
 * unpublished and the relay backs off and retries; nothing is lost while NATS is away.
 */
export function createOutboxRelay(deps: OutboxRelayDeps, options: OutboxRelayOptions): OutboxRelay {
  const { db, bus, logger, faults } = deps;
  const baseBackoff = options.baseBackoffMs ?? 100;
  const maxBackoff = options.maxBackoffMs ?? 5_000;
  let stopping = false;
  let running: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  let woken = false;

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || stopping) {
        woken = false;
        resolve();
        return;
      }
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        woken = false;
        resolve();
      }
      wakeUp = done;
    });

  const loop = async () => {
    let streamReady = false;
    let failures = 0;
    while (!stopping) {
      let delay: number;
      try {
        // Ensured lazily and again after any failure: a NATS server restarted on an empty store
        // has lost the stream, and publishing would fail until it exists again.
        if (!streamReady) {
          await bus.ensureStream(DILIGENCE_STREAM, DILIGENCE_SUBJECTS);
          streamReady = true;
        }
        const published = await relayBatch(db, bus, options.batchSize, faults);
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
    wake() {
      if (wakeUp) wakeUp();
      else woken = true;
    },
    async stop() {
      stopping = true;
      wakeUp?.();
      await running;
    },
  };
}
