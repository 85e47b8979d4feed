// The catalog page body (spec "Catalog page"), served at GET /v1/meta/fields (D33) with the
// optional filters layer, preset and name.

import type { FieldRecord } from './field-record.js';
import { FIELDS } from './fields.js';
import {
  CREDIT_COSTS,
  PARCEL_RECORD_CREDITS_BY_PLAN,
  PARCEL_RECORD_FIELD_NAMES,
  PARCEL_RECORD_NOTE,
  type PlanId,
} from './plans.js';

export interface CatalogFilters {
  /** Exact layer name. */
  readonly layer?: string;
  /** Full preset name: fields belonging to that preset. */
  readonly preset?: string;
  /** Exact field name. */
  readonly name?: string;
}

export interface MeteredGroupBilling {
  readonly credits_per_location_by_plan: Readonly<Record<PlanId, number>>;
  readonly fields: readonly string[];
  readonly note: string;
}

export interface CatalogPage {
  readonly billing: {
    readonly fetch_credits_per_field: number;
    readonly unit: 'credits';
    readonly note: string;
    readonly metered_groups: { readonly parcel_record: MeteredGroupBilling };
  };
  readonly fields: readonly FieldRecord[];
}

export const CATALOG_BILLING_NOTE =
  'A location costs fetch_credits_per_field credits for each requested field outside a metered group, ' +
  "plus each metered group's per-plan price once when any of its fields is requested. " +
  'A batch multiplies the per-location credits by the number of locations.';

const BILLING: CatalogPage['billing'] = Object.freeze({
  fetch_credits_per_field: CREDIT_COSTS.fetch_per_field,
  unit: 'credits',
  note: CATALOG_BILLING_NOTE,
  metered_groups: Object.freeze({
    parcel_record: Object.freeze({
      credits_per_location_by_plan: PARCEL_RECORD_CREDITS_BY_PLAN,
      fields: PARCEL_RECORD_FIELD_NAMES,
      note: PARCEL_RECORD_NOTE,
    }),
  }),
});

/**
 * Filters combine with AND. An unknown layer, preset or name matches nothing rather than
 * failing: a filter narrows a listing, and the edge may validate the values first if it wants
 * a 422 (see isLayer / isPreset / isCatalogField).
 */
export function buildCatalogPage(filters: CatalogFilters = {}): CatalogPage {
  const { layer, preset, name } = filters;
  const fields = FIELDS.filter(
    (field) =>
      (layer === undefined || field.layer === layer) &&
      (preset === undefined || (field.presets as readonly string[]).includes(preset)) &&
      (name === undefined || field.name === name),
  );
  return { billing: BILLING, fields };
}
