import { randomUUID } from 'node:crypto';
import type { Caller } from '@landscreen/rpc';
import type { CatalogDb } from '../schema.js';
import type { RunLocation } from './insert-run.js';
import { FINAL_STATUSES, type RunStatus } from './run-rows.js';

/** A chunk a worker holds: only the holder of `token` may write its results. */
export interface ChunkLease {
  runId: string;
  chunkNo: number;
  token: string;
  tenantId: string;
  /** The run's submitter: the chunk is evaluated on its behalf. */
  caller: Caller;
  fields: string[];
  firstIndex: number;
  locations: RunLocation[];
  /** How many times the chunk has been leased, this lease included. */
  attempts: number;
}

/**
 * What leasing a chunk found: the lease; `settled` when there is nothing left to do (the chunk is
 * done or cancelled, or its run is over or gone), so its event can be acked; `busy` when another
 * worker holds a live lease on it, so the event must come back later (that worker may die).
 */
export type LeaseOutcome = { kind: 'leased'; lease: ChunkLease } | { kind: 'settled' } | { kind: 'busy'; until: Date };

/**
 * Leases a pending chunk whose lease is absent or expired by the service's clock. The run row is
 * locked first, as cancel and complete lock it first too, so the three never deadlock and a
 * cancel never interleaves with a lease or a completion. A new lease replaces an expired one's
 * token: the worker that held it can no longer complete the chunk.
 */
export async function leaseChunk(db: CatalogDb, runId: string, chunkNo: number, now: Date, leaseMs: number, workerId: string): Promise<LeaseOutcome> {
  return db.transaction().execute(async (trx) => {
    const run = await trx.selectFrom('runs').select(['status', 'tenant_id', 'caller', 'fields']).where('id', '=', runId).forUpdate().executeTakeFirst();
    if (!run || FINAL_STATUSES.includes(run.status)) return { kind: 'settled' };
    const token = randomUUID();
    const expires = new Date(now.getTime() + leaseMs);
    const chunk = await trx
      .updateTable('run_chunks')
      .set((eb) => ({ lease_token: token, lease_expires_at: expires, lease_holder: workerId, attempts: eb('attempts', '+', eb.lit(1)) }))
      .where('run_id', '=', runId)
      .where('chunk_no', '=', chunkNo)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', now)]))
      .returning(['first_index', 'locations', 'attempts'])
      .executeTakeFirst();
    if (!chunk) {
      const held = await trx.selectFrom('run_chunks').select(['status', 'lease_expires_at']).where('run_id', '=', runId).where('chunk_no', '=', chunkNo).executeTakeFirst();
      if (!held || held.status !== 'pending') return { kind: 'settled' };
      return { kind: 'busy', until: held.lease_expires_at ?? now };
    }
    await trx
      .updateTable('runs')
      .set((eb) => ({ status: 'running', started_at: eb.fn.coalesce('started_at', eb.val(now)) }))
      .where('id', '=', runId)
      .where('status', '=', 'queued')
      .execute();
    const locations = parseLocations(chunk.locations);
    return {
      kind: 'leased',
      lease: { runId, chunkNo, token, tenantId: run.tenant_id, caller: (typeof run.caller === 'string' ? JSON.parse(run.caller) : run.caller) as Caller, fields: run.fields, firstIndex: chunk.first_index, locations, attempts: chunk.attempts },
    };
  });
}

/** jsonb comes back parsed from pg and PGlite alike; a string is parsed here in case a driver does not. */
function parseLocations(value: unknown): RunLocation[] {
  const packed = (typeof value === 'string' ? JSON.parse(value) : value) as [number, number, string | null][];
  return packed.map(([lat, lon, id]) => (id === null ? { lat, lon } : { lat, lon, id }));
}

/**
 * Writes a leased chunk's results and counts its locations done, in one transaction, only while
 * the lease's token still holds the chunk and the run is still live: a chunk is written once, by
 * one worker, and never after a cancel. Answers false when the write was refused (the lease was
 * taken over after expiring, or the run was cancelled meanwhile); the results are then dropped.
 */
export async function completeChunk(db: CatalogDb, lease: ChunkLease, resultsNdjson: string, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const run = await trx.selectFrom('runs').select('status').where('id', '=', lease.runId).forUpdate().executeTakeFirst();
    if (!run || FINAL_STATUSES.includes(run.status)) return false;
    const written = await trx
      .updateTable('run_chunks')
      .set({ status: 'done', results: resultsNdjson, done_at: now, lease_token: null, lease_expires_at: null })
      .where('run_id', '=', lease.runId)
      .where('chunk_no', '=', lease.chunkNo)
      .where('status', '=', 'pending')
      .where('lease_token', '=', lease.token)
      .executeTakeFirst();
    if (Number(written.numUpdatedRows) !== 1) return false;
    await trx
      .updateTable('runs')
      .set((eb) => {
        const last = eb('chunks_left', '=', eb.lit(1));
        return {
          done: eb('done', '+', lease.locations.length),
          chunks_left: eb('chunks_left', '-', eb.lit(1)),
          status: eb.case().when(last).then(eb.val<RunStatus>('succeeded')).else(eb.val<RunStatus>('running')).end(),
          started_at: eb.fn.coalesce('started_at', eb.val(now)),
          finished_at: eb.case().when(last).then(eb.cast<Date>(eb.val(now), 'timestamptz')).else(eb.ref('finished_at')).end(),
        };
      })
      .where('id', '=', lease.runId)
      .execute();
    return true;
  });
}

/** Gives a lease up early (its evaluation failed), so the chunk's next delivery may take it at once. */
export async function releaseChunk(db: CatalogDb, lease: ChunkLease): Promise<void> {
  await db
    .updateTable('run_chunks')
    .set({ lease_token: null, lease_expires_at: null })
    .where('run_id', '=', lease.runId)
    .where('chunk_no', '=', lease.chunkNo)
    .where('status', '=', 'pending')
    .where('lease_token', '=', lease.token)
    .execute();
}
