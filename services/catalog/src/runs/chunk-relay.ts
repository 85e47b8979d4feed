import { sql, type Kysely } from 'kysely';
import type { EventBus } from '@landscreen/events';
import type { Logger } from '@landscreen/rpc';
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
 * between commit and publish loses nothing, and a publish repeated after a crash is dropped by
 * the stream's duplicate window (and would be harmless anyway: a done chunk is settled).
 */
export function createChunkRelay(deps: { db: Kysely<any>; bus: EventBus; logger: Logger }, options: ChunkRelayOptions) {
  const { db, bus, logger } = deps;
  let stopping = false;
  let running: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      if (stopping) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });

  const loop = async () => {
    let streamReady = false;
    let failures = 0;
    while (!stopping) {
      let delay = options.pollMs;
      try {
        if (!streamReady) {
          await bus.ensureStream(RUNS_STREAM, RUNS_SUBJECTS);
          streamReady = true;
        }
        const published = await relayChunks(db, bus, options.batchSize);
        if (published === options.batchSize) delay = 0;
        failures = 0;
      } catch (error) {
        failures++;
        streamReady = false;
        delay = Math.min(100 * 2 ** Math.min(failures, 6), 5_000);
        if (failures === 1 || failures % 10 === 0) logger.warn({ err: error, failures, retryInMs: delay }, 'run chunk relay failed; chunks stay unpublished');
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
      wake?.();
      await running;
    },
  };
}

export async function relayChunks(db: Kysely<any>, bus: EventBus, batchSize: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ run_id: string; chunk_no: number }>`
      select run_id, chunk_no from catalog.run_chunks
      where published_at is null
      order by run_id, chunk_no
      limit ${batchSize}
      for update skip locked`.execute(trx);
    if (rows.length === 0) return 0;
    await Promise.all(
      rows.map((row) => bus.publish(CHUNK_READY_SUBJECT, { run_id: row.run_id, chunk_no: row.chunk_no } satisfies ChunkReadyEvent, { id: chunkEventId(row.run_id, row.chunk_no) })),
    );
    const values = rows.map((row) => sql`(${row.run_id}::uuid, ${row.chunk_no}::integer)`);
    await sql`
      update catalog.run_chunks set published_at = now()
      where (run_id, chunk_no) in (${sql.join(values)})`.execute(trx);
    return rows.length;
  });
}
