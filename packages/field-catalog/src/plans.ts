// The price list body of GET /v1/meta/plans, exactly as the spec's "Price list body", "Costs"
// and "Plans" sections give it. Key order follows the spec (credits keys and cost keys are
// alphabetical there), so a serialised body reads the same as the spec.

import { deepFreeze } from './freeze.js';
import { fieldsOfGroup } from './fields.js';
import { PARCEL_RECORD_GROUP } from './vocabulary.js';

export const PLAN_IDS = ['free', 'build', 'growth', 'scale', 'market'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export interface Plan {
  readonly id: PlanId;
  readonly name: string;
  readonly credits_included: number;
  readonly field_requests_included: number;
  readonly field_requests_signup_grant: number;
  /** The spec: no overage rate applies; null on every plan. */
  readonly overage_rate_usd_per_1k: null;
  readonly price_usd_month: number;
  readonly resolve_credits: number;
  readonly resolve_enabled: boolean;
  readonly rpm: number;
}

/** Credits per operation. `resolve` is null: it is priced per plan through resolve_credits. */
export interface CreditCosts {
  readonly ask: number;
  readonly ask_site: number;
  readonly fetch_per_field: number;
  readonly geocode: number;
  readonly proximity_distance_min: number;
  readonly proximity_labor_shed_min: number;
  readonly proximity_nearest_min: number;
  readonly proximity_per_address_locator: number;
  readonly proximity_per_driving_calc: number;
  readonly proximity_screen_min: number;
  readonly resolve: null;
  readonly site_register: number;
}

export interface PriceList {
  readonly credits: {
    readonly batch_note: string;
    readonly costs: CreditCosts;
    readonly overage_rate_usd_per_1k: null;
    readonly parcel_field_group: readonly string[];
    readonly parcel_field_group_credits_by_plan: Readonly<Record<PlanId, number>>;
    readonly parcel_field_group_note: string;
  };
  readonly plans: readonly Plan[];
}

export const PLANS: readonly Plan[] = deepFreeze([
  plan('free', 'Free', 5000, 0, 1, 0, 300, true, 20),
  plan('build', 'Build', 25000, 1, 0, 19, 300, true, 60),
  plan('growth', 'Growth', 120000, 3, 0, 99, 300, true, 300),
  plan('scale', 'Scale', 750000, 15, 0, 499, 150, true, 600),
  plan('market', 'Market', 10000000, 999, 0, 4000, 150, true, 1000),
]);

export const CREDIT_COSTS: CreditCosts = deepFreeze({
  ask: 10,
  ask_site: 10,
  fetch_per_field: 1,
  geocode: 1,
  proximity_distance_min: 2,
  proximity_labor_shed_min: 25,
  proximity_nearest_min: 2,
  proximity_per_address_locator: 1,
  proximity_per_driving_calc: 12,
  proximity_screen_min: 5,
  resolve: null,
  site_register: 10,
});

/**
 * The spec: "Parcel-group price per location by plan equals resolve_credits". Derived from the
 * plans so the two can never drift; keys sorted as the spec lists them.
 */
export const PARCEL_RECORD_CREDITS_BY_PLAN: Readonly<Record<PlanId, number>> = deepFreeze(
  Object.fromEntries(
    [...PLANS].sort((a, b) => (a.id < b.id ? -1 : 1)).map((p) => [p.id, p.resolve_credits]),
  ) as Record<PlanId, number>,
);

/**
 * Members of the parcel_record group, sorted by name: the spec gives no order for this array,
 * and the rest of the body (cost keys, plan-keyed objects, the seven named members) is sorted.
 */
export const PARCEL_RECORD_FIELD_NAMES: readonly string[] = Object.freeze(
  fieldsOfGroup(PARCEL_RECORD_GROUP)
    .map((field) => field.name)
    .sort(),
);

export const BATCH_NOTE =
  'A batch (POST /v1/fetch/batch or POST /v1/runs) costs the per-location credits times the number of locations.';

export const PARCEL_RECORD_NOTE =
  "The parcel_record field group is charged once per location at the plan's price (equal to its resolve_credits) " +
  'when any of its fields is requested, on top of fetch_per_field for each other requested field.';

export const PRICE_LIST: PriceList = deepFreeze({
  credits: {
    batch_note: BATCH_NOTE,
    costs: CREDIT_COSTS,
    overage_rate_usd_per_1k: null,
    parcel_field_group: PARCEL_RECORD_FIELD_NAMES,
    parcel_field_group_credits_by_plan: PARCEL_RECORD_CREDITS_BY_PLAN,
    parcel_field_group_note: PARCEL_RECORD_NOTE,
  },
  plans: PLANS,
});

export function isPlanId(value: string): value is PlanId {
  return (PLAN_IDS as readonly string[]).includes(value);
}

export function getPlan(id: string): Plan | undefined {
  return PLANS.find((p) => p.id === id);
}

// Positional in the spec's column order, so each line reads like its row in the Plans table.
function plan(
  id: PlanId,
  name: string,
  credits_included: number,
  field_requests_included: number,
  field_requests_signup_grant: number,
  price_usd_month: number,
  resolve_credits: number,
  resolve_enabled: boolean,
  rpm: number,
): Plan {
  return {
    id,
    name,
    credits_included,
    field_requests_included,
    field_requests_signup_grant,
    overage_rate_usd_per_1k: null,
    price_usd_month,
    resolve_credits,
    resolve_enabled,
    rpm,
  };
}
