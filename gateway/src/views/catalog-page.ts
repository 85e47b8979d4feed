import type { catalogv1 } from '@landscreen/proto';
import { fieldRecordObject } from './field.js';

/** Pages already written, by message: the embedded catalog hands out the same unfiltered page each time. */
const written = new WeakMap<catalogv1.ListFieldsResponse, Uint8Array>();

/** D33: the catalog page {"billing": {...}, "fields": [field record]} as JSON bytes. */
export function catalogPageJson(page: catalogv1.ListFieldsResponse): Uint8Array {
  let json = written.get(page);
  if (!json) written.set(page, (json = Buffer.from(JSON.stringify({ billing: billingObject(page.billing), fields: page.fields.map(fieldRecordObject) }))));
  return json;
}

function billingObject(billing: catalogv1.CatalogBilling | undefined) {
  return {
    fetch_credits_per_field: Number(billing?.fetchCreditsPerField ?? 0n),
    unit: billing?.unit ?? 'credits',
    note: billing?.note ?? '',
    metered_groups: Object.fromEntries(
      Object.entries(billing?.meteredGroups ?? {}).map(([name, group]) => [
        name,
        { credits_per_location_by_plan: creditsByPlan(group.creditsPerLocationByPlan), fields: group.fields, note: group.note },
      ]),
    ),
  };
}

/** A plan-keyed price map, keys in the order the catalog sent them (plan-id order). */
export function creditsByPlan(prices: Record<string, bigint>): Record<string, number> {
  return Object.fromEntries(Object.entries(prices).map(([plan, credits]) => [plan, Number(credits)]));
}
