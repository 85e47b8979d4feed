import { context } from '@opentelemetry/api';
import { contextFromTraceparent, tracingEnabled } from '@landscreen/telemetry';
import { createRelayLoop, type EventBus, type RelayLoop } from '@landscreen/events';
import type { Logger } from '@landscreen/rpc';
import type { CatalogDb, CatalogTransaction } from '../schema.js';
import { CHUNK_READY_SUBJECT, chunkEventId, RUNS_STREAM, RUNS_SUBJECTS, type ChunkReadyEvent } from './subjects.js';

export interface ChunkRelayOptions {
  /** Pause between polls while nothing is waiting: the longest a new run waits for its first chunk. */
  pollMs: number;
  /** Chunks published and marked per transaction. */
  batchSize: number;
}

/**
 * The outbox relay of runs (D27's pattern, D35): a chunk row is its own outbox entry until
 * `published_at` is set. Unpublished chunks are claimed `for update skip locked` (every catalog
 * replica runs a relay; they take disjoint batches), published to the `RUNS` stream with the
 * chunk's id as `Nats-Msg-Id`, and marked in the same transaction: a crash or a NATS outage
 * between commit and publish loses nothing (the shared polling loop retries with backoff), and a publish repeated after a crash is dropped by
 * the stream's duplicate window (and would be harmless anyway: a done chunk is settled).
 */
export function createChunkRelay(deps: { db: CatalogDb; bus: EventBus; logger: Logger }, options: ChunkRelayOptions): RelayLoop {
  return createRelayLoop(
    deps,
    { ...options, stream: { name: RUNS_STREAM, subjects: RUNS_SUBJECTS }, rows: 'run chunks' },
    () => relayChunks(deps.db, deps.bus, options.batchSize),
  );
}

export async function relayChunks(db: CatalogDb, bus: EventBus, batchSize: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('run_chunks')
      .select(['run_id', 'chunk_no'])
      .where('published_at', 'is', null)
      .orderBy('run_id')
      .orderBy('chunk_no')
      .limit(batchSize)
      .forUpdate()
      .skipLocked()
      .execute();
    if (rows.length === 0) return 0;
    const traces = await runTraceparents(trx, rows);
    // Each chunk under the span that accepted its run, so the runs workers' spans join its trace.
    await Promise.all(
      rows.map((row) =>
        context.with(contextFromTraceparent(traces.get(row.run_id)), () =>
          bus.publish(CHUNK_READY_SUBJECT, { run_id: row.run_id, chunk_no: row.chunk_no } satisfies ChunkReadyEvent, { id: chunkEventId(row.run_id, row.chunk_no) }),
        ),
      ),
    );
    await trx
      .updateTable('run_chunks')
      .set((eb) => ({ published_at: eb.fn('now') }))
      .where((eb) =>
        eb(
          eb.refTuple('run_id', 'chunk_no'),
          'in',
          rows.map((row) => eb.tuple(eb.cast<string>(eb.val(row.run_id), 'uuid'), eb.cast<number>(eb.val(row.chunk_no), 'integer'))),
        ),
      )
      .execute();
    return rows.length;
  });
}

/** The `traceparent` each run of the batch was accepted under; none read when tracing is off. */
async function runTraceparents(trx: CatalogTransaction, rows: { run_id: string }[]): Promise<Map<string, string | null>> {
  if (!tracingEnabled()) return new Map();
  const ids = [...new Set(rows.map((row) => row.run_id))];
  const runs = await trx.selectFrom('runs').select(['id', 'traceparent']).where('id', 'in', ids).execute();
  return new Map(runs.map((run) => [run.id, run.traceparent]));
}
