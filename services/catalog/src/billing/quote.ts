import { FIELDS, getPlan, locationCredits, type Plan, type PlanId } from '@landscreen/field-catalog';

export interface CreditQuote {
  /** Credits for one location (billing rules 1 and 2). */
  perLocation: number;
  /** perLocation x locations (rule 3). */
  total: number;
}

/**
 * The credits of fetching `fieldNames` at `locationCount` locations on `plan`: fetch_per_field
 * for each distinct field outside any metered group, each metered group's per-plan price once per
 * location when any of its fields is asked, times the locations. Names must be catalog fields
 * (the caller validated them); a field named twice counts once.
 */
export function quoteCredits(plan: PlanId | Plan, fieldNames: readonly string[], locationCount: number): CreditQuote {
  const planId = typeof plan === 'string' ? plan : plan.id;
  const { per_location: perLocation } = locationCredits(fieldNames, planId);
  return { perLocation, total: perLocation * locationCount };
}

/** The plan record of a plan id the database holds (its check constraint admits only these). */
export function planOf(id: string): Plan {
  const plan = getPlan(id);
  if (!plan) throw new Error(`unknown plan "${id}" in catalog.tenant_accounts`);
  return plan;
}

/**
 * docs/decisions.md, "Sign-up grant": one "field request" is one location answered with every
 * field of the catalog, priced on the plan; a new tenant's first UTC month gets its plan's
 * `field_requests_signup_grant` of them as credits on top of `credits_included`.
 */
export function signupGrantCredits(plan: Plan): number {
  if (plan.field_requests_signup_grant === 0) return 0;
  return plan.field_requests_signup_grant * quoteCredits(plan, ALL_FIELDS, 1).total;
}

const ALL_FIELDS = FIELDS.map((field) => field.name);
