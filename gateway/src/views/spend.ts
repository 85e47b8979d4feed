import type { SpendResponse } from '@landscreen/api-schemas';
import type { diligencev1 } from '@landscreen/proto';

/** GET …/spend (D26): the day's total, its ledger rows and the total per provider, by provider. */
export function spendJson(spend: diligencev1.GetSpendResponse): SpendResponse {
  const byProvider: Record<string, string> = {};
  for (const row of spend.byProvider) byProvider[row.provider] = row.totalUsd;
  return { day: spend.day, total_usd: spend.totalUsd, rows: spend.ledgerRows, by_provider: byProvider };
}
