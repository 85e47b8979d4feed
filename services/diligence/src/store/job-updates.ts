import { amountOutOfRange } from '../errors.js';
import { formatMoney, MAX_STORABLE, moneyFromDb, type Money } from '../money.js';
import type { DiligenceTransaction } from '../schema.js';
import type { JobMove } from '../state-machine.js';
import type { JobRow } from './jobs.js';

const NUMERIC_OVERFLOW = '22003';

/** Adds new money to the job's recorded cost; answers the job as it now is. */
export async function addJobCost(trx: DiligenceTransaction, job: JobRow, amount: Money, now: Date): Promise<JobRow> {
  try {
    return await trx
      .updateTable('jobs')
      .set((eb) => ({ cost_usd: eb('cost_usd', '+', eb.cast<string>(eb.val(formatMoney(amount)), 'numeric')), updated_at: now }))
      .where('id', '=', job.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  } catch (error) {
    // Callers check the total first (chargeStep); should one not, the refusal is still a D2 409.
    if ((error as { code?: string }).code === NUMERIC_OVERFLOW) throw amountOutOfRange(job.cost_usd, formatMoney(amount), formatMoney(MAX_STORABLE));
    throw error;
  }
}

/** D24: the recorded cost exceeds the budget. */
export const overBudget = (job: JobRow): boolean => job.max_cost_usd !== null && moneyFromDb(job.cost_usd) > moneyFromDb(job.max_cost_usd);

/** Applies a job move of the state machine; leaving `running` ends the claim. */
export async function moveJobTo(trx: DiligenceTransaction, job: JobRow, move: JobMove, now: Date): Promise<JobRow> {
  if (!move.changed) return job;
  const releasesClaim = move.to !== 'running';
  return trx
    .updateTable('jobs')
    .set({
      status: move.to,
      updated_at: now,
      ...(releasesClaim && { claim_token: null, claimed_by: null, lease_expires_at: null }),
    })
    .where('id', '=', job.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
