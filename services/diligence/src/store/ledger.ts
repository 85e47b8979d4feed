import { formatMoney, type Money } from '../money.js';
import type { DiligenceTransaction } from '../schema.js';

export interface CostEntry {
  tenantId: string;
  jobId: string | null;
  /** Null for a reveal. */
  step: string | null;
  propertyId: string | null;
  provider: string;
  providerRequestId: string | null;
  amount: Money;
  /** The service's clock: spend days (D26) are counted by it. */
  recordedAt: Date;
  /** Chosen by the caller when another row must point at this one. */
  id?: string;
}

/**
 * Writes a cost-ledger row (D24), in the caller's transaction. A provider request already in the
 * ledger for the same job and step is not written again (D24: reconcile is idempotent); the answer
 * says whether a row was written, so the job's cost grows only by new money.
 */
export async function recordCost(trx: DiligenceTransaction, entry: CostEntry): Promise<boolean> {
  const row = await trx
    .insertInto('cost_ledger')
    .values({
      ...(entry.id && { id: entry.id }),
      tenant_id: entry.tenantId,
      job_id: entry.jobId,
      step: entry.step,
      property_id: entry.propertyId,
      provider: entry.provider,
      provider_request_id: entry.providerRequestId,
      amount_usd: formatMoney(entry.amount),
      recorded_at: entry.recordedAt,
    })
    .onConflict((conflict) => conflict.columns(['job_id', 'step', 'provider_request_id']).where('provider_request_id', 'is not', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
