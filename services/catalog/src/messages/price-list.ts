// The price list (spec "Price list body", D33) as a ListPlansResponse message: built once, immutable.

import { create } from '@bufbuild/protobuf';
import { PRICE_LIST, type Plan } from '@landscreen/field-catalog';
import { catalogv1 } from '@landscreen/proto';

/** USD amounts travel as decimal strings (never floats); null (no overage rate) is absent. */
const usd = (amount: number | null) => (amount === null ? undefined : String(amount));

export const PRICE_LIST_MESSAGE: catalogv1.ListPlansResponse = priceListMessage();

function priceListMessage(): catalogv1.ListPlansResponse {
  const { credits, plans } = PRICE_LIST;
  const costs = credits.costs;
  return create(catalogv1.ListPlansResponseSchema, {
    credits: {
      batchNote: credits.batch_note,
      costs: {
        ask: BigInt(costs.ask),
        askSite: BigInt(costs.ask_site),
        fetchPerField: BigInt(costs.fetch_per_field),
        geocode: BigInt(costs.geocode),
        proximityDistanceMin: BigInt(costs.proximity_distance_min),
        proximityLaborShedMin: BigInt(costs.proximity_labor_shed_min),
        proximityNearestMin: BigInt(costs.proximity_nearest_min),
        proximityPerAddressLocator: BigInt(costs.proximity_per_address_locator),
        proximityPerDrivingCalc: BigInt(costs.proximity_per_driving_calc),
        proximityScreenMin: BigInt(costs.proximity_screen_min),
        resolve: costs.resolve === null ? undefined : BigInt(costs.resolve),
        siteRegister: BigInt(costs.site_register),
      },
      overageRateUsdPer1k: usd(credits.overage_rate_usd_per_1k),
      parcelFieldGroup: [...credits.parcel_field_group],
      parcelFieldGroupCreditsByPlan: Object.fromEntries(Object.entries(credits.parcel_field_group_credits_by_plan).map(([plan, price]) => [plan, BigInt(price)])),
      parcelFieldGroupNote: credits.parcel_field_group_note,
    },
    plans: plans.map(planMessage),
  });
}

function planMessage(plan: Plan) {
  return {
    id: plan.id,
    name: plan.name,
    creditsIncluded: BigInt(plan.credits_included),
    fieldRequestsIncluded: BigInt(plan.field_requests_included),
    fieldRequestsSignupGrant: BigInt(plan.field_requests_signup_grant),
    overageRateUsdPer1k: usd(plan.overage_rate_usd_per_1k),
    priceUsdMonth: String(plan.price_usd_month),
    resolveCredits: BigInt(plan.resolve_credits),
    resolveEnabled: plan.resolve_enabled,
    rpm: plan.rpm,
  };
}
