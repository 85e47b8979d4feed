import { creditsRefunded } from '@landscreen/telemetry';
import type { CatalogDb } from '../schema.js';
import { FINAL_STATUSES, readRun, RUN_COLUMNS, type RunRow } from './run-rows.js';
import type { RunRefund } from './run-billing.js';

/**
 * Ends a live run as `cancelled` (DELETE) or `failed` (a chunk that keeps failing): its chunks
 * not yet done become `cancelled` — a worker holding one of them can no longer complete it — and
 * their locations' credits are refunded, all in one transaction under the run's row lock. A run
 * already over is answered as it is, so repeating the call (or racing it with a worker's
 * completion, which takes the same lock) refunds exactly once, and only what was never processed.
 */
export async function stopRun(
  db: CatalogDb,
  refund: RunRefund,
  target: { tenantId: string; runId: string; status: 'cancelled' | 'failed'; error?: string },
  now: Date,
): Promise<RunRow> {
  let refunded = 0n;
  const stopped = await db.transaction().execute(async (trx) => {
    const run = await readRun(trx, target.tenantId, target.runId, true);
    if (FINAL_STATUSES.includes(run.status)) return run;
    // Marked published too, so the relay never hands a cancelled chunk to the workers.
    const rows = await trx
      .updateTable('run_chunks')
      .set((eb) => ({ status: 'cancelled', lease_token: null, lease_expires_at: null, published_at: eb.fn.coalesce('published_at', eb.val(now)) }))
      .where('run_id', '=', run.id)
      .where('status', '=', 'pending')
      .returning('size')
      .execute();
    const locations = rows.reduce((sum, row) => sum + row.size, 0);
    const credits = BigInt(run.credits_per_location) * BigInt(locations);
    if (credits > 0n && run.charge_ledger_id !== null) {
      await refund(trx, { tenantId: run.tenant_id, runId: run.id, chargeLedgerId: String(run.charge_ledger_id), credits, locations, at: now });
      refunded = credits;
    }
    return trx
      .updateTable('runs')
      .set((eb) => ({
        status: target.status,
        chunks_left: 0,
        credits_refunded: eb('credits_refunded', '+', eb.cast<number>(eb.val(credits.toString()), 'bigint')),
        error: target.error ?? null,
        finished_at: now,
      }))
      .where('id', '=', run.id)
      .returning(RUN_COLUMNS)
      .executeTakeFirstOrThrow();
  });
  // Counted once the refund has committed.
  if (refunded > 0n) creditsRefunded.inc({ kind: 'run' }, Number(refunded));
  return stopped;
}
