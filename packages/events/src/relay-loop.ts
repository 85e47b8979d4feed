import type { EventBus } from './bus.js';

/** The two log calls a relay makes (pino's signature; any logger of the services fits). */
export interface RelayLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface RelayLoopOptions {
  /** Pause between polls while nothing is waiting: the worst-case delay of a new row. */
  pollMs: number;
  /** Rows a step handles at most; a full step is followed at once by the next. */
  batchSize: number;
  /** First pause after a failure (NATS away, database away); doubles up to `maxBackoffMs`. */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  /** The stream the rows are published to, ensured before the first step and after any failure. */
  stream: { name: string; subjects: string[] };
  /** What the log lines call the rows ("events", "chunks"). */
  rows: string;
}

export interface RelayLoop {
  /** Starts the background loop; resolves at once (the loop retries on its own). */
  start(): void;
  /** Stops polling and waits for the step in hand to commit or roll back. */
  stop(): Promise<void>;
}

/**
 * Pause after the `failures`-th consecutive failure: doubling from `baseMs`, capped at `maxMs`,
 * so a short NATS blip is retried at once and a long outage is not hammered.
 */
export function backoffMs(failures: number, baseMs: number, maxMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, failures - 1), maxMs);
}

/**
 * The polling loop every transactional outbox relay runs (D27): `step` claims up to a batch of
 * unpublished rows, publishes them and marks them in one transaction, answering how many it
 * handled; `afterStep` does upkeep (pruning) when a step succeeded. Polling works the same on
 * PostgreSQL and PGlite and for rows written by any process. When a step fails, the rows stay
 * unpublished and the loop backs off and retries: nothing is lost while NATS or the database is
 * away. The stream is ensured lazily and again after any failure, because a NATS server restarted
 * on an empty store has lost it and publishing would fail until it exists again.
 */
export function createRelayLoop(
  deps: { bus: EventBus; logger: RelayLogger },
  options: RelayLoopOptions,
  step: () => Promise<number>,
  afterStep?: (isStopping: () => boolean) => Promise<void>,
): RelayLoop {
  const { bus, logger } = deps;
  const baseBackoff = options.baseBackoffMs ?? 100;
  const maxBackoff = options.maxBackoffMs ?? 5_000;
  let stopping = false;
  let running: Promise<void> | undefined;
  /** Ends the current pause early (stop() does, so it never waits out a poll). */
  let wakeUp: (() => void) | undefined;
  const isStopping = () => stopping;

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

  const loop = async () => {
    let streamReady = false;
    let failures = 0;
    while (!stopping) {
      let delay: number;
      try {
        if (!streamReady) {
          await bus.ensureStream(options.stream.name, options.stream.subjects);
          streamReady = true;
        }
        const handled = await step();
        await afterStep?.(isStopping);
        if (failures > 0) logger.info({ failures }, `relay of ${options.rows} recovered`);
        failures = 0;
        delay = handled === options.batchSize ? 0 : options.pollMs;
      } catch (error) {
        failures++;
        streamReady = false;
        delay = backoffMs(failures, baseBackoff, maxBackoff);
        // Every failure of an outage would flood the log; the first and then every tenth say enough.
        if (failures === 1 || failures % 10 === 0) {
          logger.warn({ err: error, failures, retryInMs: delay }, `relay of ${options.rows} failed; they stay unpublished`);
        }
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
