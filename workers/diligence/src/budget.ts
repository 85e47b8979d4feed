import type { TenantApi } from './api-client.js';
import { formatUsd, parseUsd } from './money.js';

export interface Reservation {
  release(): void;
}

export interface BudgetDecision {
  allowed: boolean;
  /** What the ledger says the tenant spent today (every row, manual runs included). */
  spentUsd: string;
  /** Budgets of jobs this worker authorized and is still driving. */
  reservedUsd: string;
  limitUsd: string;
  reservation?: Reservation;
}

/**
 * The worker's automatic daily budget per tenant. A job is authorized automatically only when
 * today's recorded spend (GET /spend: every ledger row of the day, so manual runs and reveals
 * count), plus the budgets of jobs this worker is still driving, plus the new job's budget, stays
 * within the limit. Decisions for one tenant are taken one at a time, so concurrent jobs cannot
 * each see the same headroom. A job's reservation is released once it is driven; by then what it
 * spent is in the ledger.
 *
 * Several worker processes each keep their own reservations: together they can overshoot by at
 * most (processes - 1) × the per-job budget, and only while their jobs run.
 */
export class DailyBudget {
  private readonly limit: bigint;
  private readonly reserved = new Map<string, bigint>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(limitUsd: string) {
    this.limit = parseUsd(limitUsd);
  }

  reserve(api: Pick<TenantApi, 'tenant' | 'spend'>, jobBudgetUsd: string): Promise<BudgetDecision> {
    const tenant = api.tenant;
    const decide = async (): Promise<BudgetDecision> => {
      const spent = parseUsd((await api.spend()).total_usd);
      const reserved = this.reserved.get(tenant) ?? 0n;
      const amount = parseUsd(jobBudgetUsd);
      const decision = { spentUsd: formatUsd(spent), reservedUsd: formatUsd(reserved), limitUsd: formatUsd(this.limit) };
      if (spent + reserved + amount > this.limit) return { allowed: false, ...decision };
      this.reserved.set(tenant, reserved + amount);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        const left = (this.reserved.get(tenant) ?? 0n) - amount;
        if (left > 0n) this.reserved.set(tenant, left);
        else this.reserved.delete(tenant);
      };
      return { allowed: true, ...decision, reservation: { release } };
    };
    const previous = this.queues.get(tenant) ?? Promise.resolve();
    const decided = previous.then(decide, decide);
    const settled = decided.catch(() => undefined);
    this.queues.set(tenant, settled);
    void settled.then(() => {
      if (this.queues.get(tenant) === settled) this.queues.delete(tenant);
    });
    return decided;
  }
}
