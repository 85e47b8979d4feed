import type { catalogv1 } from '@landscreen/proto';
import { planObject, usdOrNull } from './plan.js';

/** Price lists already written, by message: the embedded catalog hands out one immutable message. */
const written = new WeakMap<catalogv1.ListPlansResponse, Uint8Array>();

/** D33: the price list {"credits": {...}, "plans": [plan]} exactly as the catalog spec gives it. */
export function priceListJson(list: catalogv1.ListPlansResponse): Uint8Array {
  let json = written.get(list);
  if (!json) written.set(list, (json = Buffer.from(JSON.stringify({ credits: creditsObject(list.credits), plans: list.plans.map(planObject) }))));
  return json;
}

/** The "credits" section: keys alphabetical, as the spec lists them. */
function creditsObject(credits: catalogv1.CreditPrices | undefined) {
  const costs = credits?.costs;
  const n = (value: bigint | undefined) => Number(value ?? 0n);
  return {
    batch_note: credits?.batchNote ?? '',
    costs: {
      ask: n(costs?.ask),
      ask_site: n(costs?.askSite),
      fetch_per_field: n(costs?.fetchPerField),
      geocode: n(costs?.geocode),
      proximity_distance_min: n(costs?.proximityDistanceMin),
      proximity_labor_shed_min: n(costs?.proximityLaborShedMin),
      proximity_nearest_min: n(costs?.proximityNearestMin),
      proximity_per_address_locator: n(costs?.proximityPerAddressLocator),
      proximity_per_driving_calc: n(costs?.proximityPerDrivingCalc),
      proximity_screen_min: n(costs?.proximityScreenMin),
      resolve: costs?.resolve === undefined ? null : Number(costs.resolve),
      site_register: n(costs?.siteRegister),
    },
    overage_rate_usd_per_1k: usdOrNull(credits?.overageRateUsdPer1k),
    parcel_field_group: credits?.parcelFieldGroup ?? [],
    parcel_field_group_credits_by_plan: creditsByPlan(credits?.parcelFieldGroupCreditsByPlan ?? {}),
    parcel_field_group_note: credits?.parcelFieldGroupNote ?? '',
  };
}

/** A plan-keyed price map, keys in the order the catalog sent them (plan-id order). */
function creditsByPlan(prices: Record<string, bigint>): Record<string, number> {
  return Object.fromEntries(Object.entries(prices).map(([plan, credits]) => [plan, Number(credits)]));
}
