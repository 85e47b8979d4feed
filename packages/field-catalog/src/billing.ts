// Credits for point-data fetches, by the spec's three billing rules:
// 1. per location: fetch_per_field x each requested field outside any metered group, plus
//    each metered group's per-plan price once if any of its fields is requested;
// 2. the parcel_record group is charged once per location, not per field;
// 3. a batch multiplies the per-location credits by the number of locations.
// A field named twice in one request is one requested field.

import { UnknownFieldError, UnknownPlanError } from './errors.js';
import { FIELD_BY_NAME } from './fields.js';
import { CREDIT_COSTS, PARCEL_RECORD_CREDITS_BY_PLAN, isPlanId, type PlanId } from './plans.js';
import type { MeteredGroup } from './vocabulary.js';

const GROUP_PRICES: Readonly<Record<MeteredGroup, Readonly<Record<PlanId, number>>>> = {
  parcel_record: PARCEL_RECORD_CREDITS_BY_PLAN,
};

export interface LocationCredits {
  /** Distinct requested fields billed per field. */
  readonly ordinary_fields: number;
  /** Credits charged per metered group that has at least one requested field. */
  readonly metered_groups: Readonly<Partial<Record<MeteredGroup, number>>>;
  readonly per_location: number;
}

export function locationCredits(fieldNames: readonly string[], planId: string): LocationCredits {
  if (!isPlanId(planId)) throw new UnknownPlanError(planId);
  const names = [...new Set(fieldNames)];
  const unknown = names.filter((name) => !FIELD_BY_NAME.has(name));
  if (unknown.length > 0) throw new UnknownFieldError(unknown, FIELD_BY_NAME.keys());

  let ordinaryFields = 0;
  const groups = new Set<MeteredGroup>();
  for (const name of names) {
    const group = FIELD_BY_NAME.get(name)!.billing.metered_group;
    if (group === null) ordinaryFields += 1;
    else groups.add(group);
  }

  const meteredGroups: Partial<Record<MeteredGroup, number>> = {};
  let perLocation = ordinaryFields * CREDIT_COSTS.fetch_per_field;
  for (const group of groups) {
    const price = GROUP_PRICES[group][planId];
    meteredGroups[group] = price;
    perLocation += price;
  }
  return { ordinary_fields: ordinaryFields, metered_groups: meteredGroups, per_location: perLocation };
}

export function creditsPerLocation(fieldNames: readonly string[], planId: string): number {
  return locationCredits(fieldNames, planId).per_location;
}

export function batchCredits(fieldNames: readonly string[], planId: string, locations: number): number {
  if (!Number.isSafeInteger(locations) || locations < 0) {
    throw new RangeError(`locations must be a non-negative integer, got ${locations}`);
  }
  return creditsPerLocation(fieldNames, planId) * locations;
}
