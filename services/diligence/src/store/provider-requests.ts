import { moneyFromDb, type Money } from '../money.js';
import type { DiligenceDb } from '../schema.js';
import { FINISHED } from '../state-machine.js';
import type { StepRow } from './jobs.js';

export interface RecordedRequest {
  provider: string;
  amount: Money;
}

/** The ledger row of a provider request of a step (one at most: a unique index), if any. */
export async function ledgerEntryFor(db: DiligenceDb, step: Pick<StepRow, 'job_id' | 'name'>, providerRequestId: string): Promise<RecordedRequest | undefined> {
  const row = await db
    .selectFrom('cost_ledger')
    .select(['provider', 'amount_usd'])
    .where('job_id', '=', step.job_id)
    .where('step', '=', step.name)
    .where('provider_request_id', '=', providerRequestId)
    .executeTakeFirst();
  return row && { provider: row.provider, amount: moneyFromDb(row.amount_usd) };
}

/**
 * What the step has recorded for a provider request: its ledger row, else the step's own result
 * when that result names the request (a request that cost nothing has no ledger row).
 */
export async function recordedRequest(db: DiligenceDb, step: StepRow, providerRequestId: string): Promise<RecordedRequest | undefined> {
  const entry = await ledgerEntryFor(db, step, providerRequestId);
  if (entry) return entry;
  if (FINISHED.includes(step.status) && step.provider_request_id === providerRequestId && step.provider !== null) {
    return { provider: step.provider, amount: 0n };
  }
  return undefined;
}
