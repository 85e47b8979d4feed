import type { catalogv1 } from '@landscreen/proto';

/**
 * A field record of the catalog page (spec "Field record") in the spec's key order: nulls for an
 * absent unit, null_meaning, derivation and per-location price; `enum` only when the spec states one.
 */
export function fieldRecordObject(field: catalogv1.FieldRecord): Record<string, unknown> {
  const derivation = field.derivation;
  return {
    name: field.name,
    layer: field.layer,
    description: field.description,
    interpretation_hints: field.interpretationHints,
    type: field.type,
    unit: field.unit ?? null,
    nullable: field.nullable,
    null_meaning: field.nullMeaning ?? null,
    ttl_seconds: Number(field.ttlSeconds),
    presets: field.presets,
    lifecycle: field.lifecycle,
    billing: {
      credits_per_location: field.billing?.creditsPerLocation === undefined ? null : Number(field.billing.creditsPerLocation),
      metered_group: field.billing?.meteredGroup ?? null,
    },
    derivation: derivation ? { formula: derivation.formula, formula_version: derivation.formulaVersion, inputs: derivation.inputs } : null,
    source: field.source,
    source_url: field.sourceUrl,
    ...(field.enumValues.length > 0 ? { enum: field.enumValues.map((value) => value.value.value) } : {}),
  };
}
