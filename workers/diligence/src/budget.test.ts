import { describe, expect, it } from 'vitest';
import { DailyBudget } from './budget.js';

/** The spend endpoint's answer, as a tenant's ledger would give it. */
const ledger = (tenant: string, totalUsd: () => string) => ({
  tenant,
  spend: async () => ({ day: '2026-11-22', total_usd: totalUsd(), rows: 0, by_provider: {} }),
});

describe('the daily budget', () => {
  it('allows a job while spend + reserved + its budget stays within the limit', async () => {
    const budget = new DailyBudget('10.0000');
    const first = await budget.reserve(ledger('a', () => '4.0000'), '5.0000');
    expect(first).toMatchObject({ allowed: true, spentUsd: '4.0000', reservedUsd: '0.0000', limitUsd: '10.0000' });
    // 4 spent + 5 reserved + 5 > 10
    const second = await budget.reserve(ledger('a', () => '4.0000'), '5.0000');
    expect(second).toMatchObject({ allowed: false, reservedUsd: '5.0000' });
    first.reservation!.release();
    first.reservation!.release(); // twice is once
    expect((await budget.reserve(ledger('a', () => '4.0000'), '5.0000')).allowed).toBe(true);
  });

  it('counts exactly at the limit, in ten-thousandths', async () => {
    const budget = new DailyBudget('0.3');
    expect((await budget.reserve(ledger('a', () => '0.1'), '0.2')).allowed).toBe(true);
    expect((await budget.reserve(ledger('b', () => '0.1001'), '0.2')).allowed).toBe(false);
  });

  it('decides one job at a time per tenant, so concurrent jobs cannot share the same headroom', async () => {
    const budget = new DailyBudget('10');
    const decisions = await Promise.all(Array.from({ length: 8 }, () => budget.reserve(ledger('a', () => '0'), '3')));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(3);
  });

  it('keeps tenants apart', async () => {
    const budget = new DailyBudget('5');
    expect((await budget.reserve(ledger('a', () => '0'), '5')).allowed).toBe(true);
    expect((await budget.reserve(ledger('b', () => '0'), '5')).allowed).toBe(true);
  });

  it('fails the decision (not the queue) when the spend cannot be read', async () => {
    const budget = new DailyBudget('5');
    await expect(budget.reserve({ tenant: 'a', spend: async () => Promise.reject(new Error('gateway away')) }, '1')).rejects.toThrow('gateway away');
    expect((await budget.reserve(ledger('a', () => '0'), '1')).allowed).toBe(true);
  });
});
