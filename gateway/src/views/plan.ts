import type { catalogv1 } from '@landscreen/proto';

/** A plan of the price list (spec "Plans") in the spec's key order; USD amounts as JSON numbers. */
export function planObject(plan: catalogv1.Plan): Record<string, unknown> {
  return {
    id: plan.id,
    name: plan.name,
    credits_included: Number(plan.creditsIncluded),
    field_requests_included: Number(plan.fieldRequestsIncluded),
    field_requests_signup_grant: Number(plan.fieldRequestsSignupGrant),
    overage_rate_usd_per_1k: usdOrNull(plan.overageRateUsdPer1k),
    price_usd_month: Number(plan.priceUsdMonth),
    resolve_credits: Number(plan.resolveCredits),
    resolve_enabled: plan.resolveEnabled,
    rpm: plan.rpm,
  };
}

/** A decimal USD string as the JSON number the price list prints; absent is null. */
export function usdOrNull(amount: string | undefined): number | null {
  return amount === undefined ? null : Number(amount);
}
