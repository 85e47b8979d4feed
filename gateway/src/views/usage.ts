import type { UsageResponse } from '@landscreen/api-schemas';
import type { catalogv1 } from '@landscreen/proto';

/** GET /v1/usage (D34): the plan and this UTC month's credits, by operation. */
export function usageJson(usage: catalogv1.GetUsageResponse): UsageResponse {
  return {
    plan: usage.plan,
    month: usage.month,
    included: Number(usage.included),
    charged: Number(usage.charged),
    remaining: Number(usage.remaining),
    rpm: usage.rpm,
    by_operation: Object.fromEntries(Object.entries(usage.byOperation).map(([operation, credits]) => [operation, Number(credits)])),
    signup_grant: Number(usage.signupGrant),
  };
}
