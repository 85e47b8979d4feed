import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Transport } from '@connectrpc/connect';
import type { BusEvent, EventBus, Subscription } from '@landscreen/events';
import type { Clock, Logger } from '@landscreen/rpc';
import { runChunksInFlight } from '@landscreen/telemetry';
import { evaluatePoints } from '../handlers/evaluate-points.js';
import { LayerCache } from '../layers/layer-cache.js';
import type { ProcessDatabase } from '@landscreen/db';
import { catalogDb } from '../schema.js';
import { completeChunk, leaseChunk, releaseChunk, type ChunkLease } from './chunk-lease.js';
import { evaluateChunk } from './evaluate-chunk.js';
import { ledgerRefund, type RunRefund } from './run-billing.js';
import { stopRun } from './stop-run.js';
import { CHUNK_READY_SUBJECT, RUNS_STREAM, RUNS_SUBJECTS, RUNS_WORKER_DURABLE, type ChunkReadyEvent } from './subjects.js';

export interface RunsWorkerOptions {
  /** The process's database; the worker works in the catalog's schema of it. */
  db: ProcessDatabase;
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  /**
   * Where parcel_record fields find their parcels (discovery's LocateParcels), as the catalog
   * service reaches it: in-process in the embedded default, DISCOVERY_URL in a worker process.
   */
  discovery?: () => Transport;
  /** How a failed run's unprocessed locations are refunded (default: the credit ledger). */
  refund?: RunRefund;
  /** How long a lease holds a chunk; a worker that dies holding one frees it after this. */
  leaseMs: number;
  /** Chunks one worker process evaluates at once. */
  concurrency: number;
  /**
   * A chunk whose evaluation failed this many times fails its run (the rest is refunded). The
   * redeliveries back off from 250 ms, doubling: 10 attempts ride out about two minutes of a
   * dependency (discovery, the database) being away.
   */
  maxAttempts?: number;
  /** Recorded with each lease; defaults to host, pid and a random suffix. */
  workerId?: string;
  /** Bytes of grid blocks this worker's engine keeps (LAYER_GRID_CACHE_MB; default DEFAULT_GRID_CACHE_BYTES). */
  gridCacheBytes?: number;
  /** Test-only: called once a chunk's results are computed, before they are written. */
  beforeComplete?: (lease: ChunkLease) => Promise<void>;
}

export interface RunsWorker {
  readonly workerId: string;
  stop(): Promise<void>;
}

/**
 * A batch worker of runs (D35): a durable JetStream consumer with explicit acks. For each chunk
 * event it leases the chunk in the database (fenced token, lease expiry from the clock), evaluates
 * it with the catalog's EvaluatePoints implementation (the current layer versions this process
 * loads from the catalog schema; parcels from discovery), and writes the results and the progress
 * in one transaction that only the lease holder can commit; then the event is acked. A worker killed
 * mid-chunk never acks: the event comes back after the ack wait, and once the lease has expired
 * another worker leases the chunk again. Any number of worker processes share the consumer.
 */
export async function startRunsWorker(options: RunsWorkerOptions): Promise<RunsWorker> {
  const { bus, clock, logger } = options;
  const db = catalogDb(options.db);
  // The catalog's engine over the layers this process loads from the catalog schema, and its EvaluatePoints implementation.
  const layers = new LayerCache(db, { gridCacheBytes: options.gridCacheBytes });
  const evaluate = evaluatePoints(layers, options.discovery);
  const stopping = new AbortController();
  const maxAttempts = options.maxAttempts ?? 10;
  const workerId = options.workerId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;

  const handle = async (event: BusEvent): Promise<void> => {
    const data = (event.data ?? {}) as Partial<ChunkReadyEvent>;
    if (typeof data.run_id !== 'string' || typeof data.chunk_no !== 'number') {
      logger.warn({ event: event.id }, 'run chunk event without a run id or chunk number; skipped');
      return;
    }
    const outcome = await leaseChunk(db, data.run_id, data.chunk_no, clock.now(), options.leaseMs, workerId);
    if (outcome.kind === 'settled') return;
    // Another worker holds it: ask again later, since that worker may die before finishing.
    if (outcome.kind === 'busy') throw new ChunkBusy(data.run_id, data.chunk_no, outcome.until);
    const lease = outcome.lease;
    const log = logger.child({ run: lease.runId, chunk: lease.chunkNo });
    let results: string;
    runChunksInFlight.inc();
    try {
      results = await evaluateChunk(evaluate, layers, lease, stopping.signal);
    } catch (error) {
      // A worker that is stopping gives the chunk back; that is no failure of the chunk.
      if (lease.attempts >= maxAttempts && !stopping.signal.aborted) {
        log.error({ err: error, attempts: lease.attempts }, 'a run chunk keeps failing; the run fails and its unprocessed locations are refunded');
        await stopRun(db, options.refund ?? ledgerRefund, { tenantId: lease.tenantId, runId: lease.runId, status: 'failed', error: 'a chunk of the run could not be evaluated' }, clock.now());
        return;
      }
      await releaseChunk(db, lease).catch(() => undefined);
      throw error;
    } finally {
      runChunksInFlight.dec();
    }
    await options.beforeComplete?.(lease);
    const written = await completeChunk(db, lease, results, clock.now());
    if (!written) log.info('chunk results dropped: the run was stopped or the lease was taken over');
  };

  await bus.ensureStream(RUNS_STREAM, RUNS_SUBJECTS);
  const subscription: Subscription = await bus.subscribe(
    RUNS_STREAM,
    {
      durable: RUNS_WORKER_DURABLE,
      subjects: [CHUNK_READY_SUBJECT],
      concurrency: options.concurrency,
      // Redelivered once the lease has expired: then the chunk can be leased again.
      ackWaitMs: Math.max(1_000, options.leaseMs),
    },
    async (event) => {
      try {
        await handle(event);
      } catch (error) {
        if (!(error instanceof ChunkBusy) && !stopping.signal.aborted) logger.warn({ err: error, event: event.id }, 'run chunk not completed; it will be redelivered');
        throw error;
      }
    },
  );
  logger.info({ workerId, concurrency: options.concurrency, leaseMs: options.leaseMs }, 'runs worker is up');
  return {
    workerId,
    async stop() {
      stopping.abort(new Error('the runs worker is stopping'));
      await subscription.stop();
    },
  };
}

class ChunkBusy extends Error {
  constructor(runId: string, chunkNo: number, until: Date) {
    super(`chunk ${chunkNo} of run ${runId} is leased until ${until.toISOString()}`);
    this.name = 'ChunkBusy';
  }
}
