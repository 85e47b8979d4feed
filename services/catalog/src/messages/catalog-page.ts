// The catalog page (spec "Catalog page", D33) as ListFieldsResponse messages. The catalog is static:
// every field record is built once, and a page is a filtered list of those messages.

import { create } from '@bufbuild/protobuf';
import { buildCatalogPage, FIELDS, type CatalogFilters, type FieldRecord } from '@landscreen/field-catalog';
import { catalogv1 } from '@landscreen/proto';

const RECORDS = new Map<string, catalogv1.FieldRecord>(FIELDS.map((field) => [field.name, fieldRecordMessage(field)]));

const BILLING = billingMessage(buildCatalogPage({}).billing);

/** The page of the fields matching the filters (AND; an unknown value matches nothing). */
export function catalogPageMessage(filters: CatalogFilters): catalogv1.ListFieldsResponse {
  const page = buildCatalogPage(filters);
  return create(catalogv1.ListFieldsResponseSchema, { billing: BILLING, fields: page.fields.map((field) => RECORDS.get(field.name)!) });
}

function billingMessage(billing: ReturnType<typeof buildCatalogPage>['billing']): catalogv1.CatalogBilling {
  const group = billing.metered_groups.parcel_record;
  return create(catalogv1.CatalogBillingSchema, {
    fetchCreditsPerField: BigInt(billing.fetch_credits_per_field),
    unit: billing.unit,
    note: billing.note,
    meteredGroups: {
      parcel_record: {
        creditsPerLocationByPlan: Object.fromEntries(Object.entries(group.credits_per_location_by_plan).map(([plan, credits]) => [plan, BigInt(credits)])),
        fields: [...group.fields],
        note: group.note,
      },
    },
  });
}

function fieldRecordMessage(field: FieldRecord): catalogv1.FieldRecord {
  return create(catalogv1.FieldRecordSchema, {
    name: field.name,
    layer: field.layer,
    description: field.description,
    interpretationHints: field.interpretation_hints,
    type: field.type,
    unit: field.unit ?? undefined,
    nullable: field.nullable,
    nullMeaning: field.null_meaning ?? undefined,
    ttlSeconds: BigInt(field.ttl_seconds),
    presets: [...field.presets],
    lifecycle: field.lifecycle,
    billing: {
      creditsPerLocation: field.billing.credits_per_location === null ? undefined : BigInt(field.billing.credits_per_location),
      meteredGroup: field.billing.metered_group ?? undefined,
    },
    derivation: field.derivation
      ? { formula: field.derivation.formula, formulaVersion: field.derivation.formula_version, inputs: [...field.derivation.inputs] }
      : undefined,
    source: field.source,
    sourceUrl: field.source_url,
    enumValues: (field.enum ?? []).map((value) =>
      typeof value === 'string' ? { value: { case: 'stringValue' as const, value } } : { value: { case: 'numberValue' as const, value } },
    ),
  });
}
