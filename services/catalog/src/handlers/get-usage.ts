import type { HandlerContext } from '@connectrpc/connect';
import { requireCaller } from '@landscreen/rpc';
import { creditsByOperation, monthBalance, tenantAccount, type BillingContext } from '../billing/index.js';
import { monthLabel } from '../billing/month.js';

/** GET /v1/usage (D34): free and not rate-limited; the UTC month of the service's clock. */
export function getUsageHandler({ db, clock }: BillingContext) {
  return async (_request: unknown, call: HandlerContext) => {
    const { tenantId } = requireCaller(call);
    const now = clock.now();
    const account = await tenantAccount(db, tenantId, now);
    const [balance, byOperation] = await Promise.all([monthBalance(db, account, now), creditsByOperation(db, tenantId, now)]);
    return {
      plan: account.plan.id,
      month: monthLabel(balance.month),
      included: BigInt(balance.allowance),
      charged: BigInt(balance.charged),
      remaining: BigInt(balance.remaining),
      rpm: account.plan.rpm,
      byOperation: Object.fromEntries(Object.entries(byOperation).map(([operation, credits]) => [operation, BigInt(credits)])),
      signupGrant: BigInt(balance.month === account.signupMonth ? account.signupGrantCredits : 0),
    };
  };
}
