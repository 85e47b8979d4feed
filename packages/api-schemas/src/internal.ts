import { Type, type Static } from '@sinclair/typebox';
import { Closed, Nullable, OneOf } from './building-blocks.js';

const MwRange = Closed({ low: Type.Number(), high: Type.Number() }, { description: 'Megawatts.' });

const HostingCapacityBasis = Closed(
  {
    kind: OneOf(['substation', 'transmission_line'] as const),
    source: Type.String({ description: 'The layer source the feature came from.' }),
    layer_version: Type.String({ description: 'The layer version the feature came from.' }),
    distance_m: Type.Number({ description: 'Geodesic meters from the point to the feature.' }),
    voltage_kv: Nullable(Type.Number(), { description: 'The feature\'s voltage (a substation\'s max voltage); null when the layer does not give it.' }),
    status: Nullable(Type.String()),
    estimate_mw: MwRange,
  },
  { $id: 'HostingCapacityBasis' },
);

/** POST /v1/internal/hosting-capacity/estimate (D31). */
export const EstimateResponse = Closed(
  {
    estimate_mw: Nullable(MwRange, { description: 'Null when no grid layer is loaded (null_reason `no_coverage`).' }),
    basis: Type.Array(HostingCapacityBasis, { description: 'The nearest substation and transmission line, strongest first.' }),
    confidence: OneOf(['low', 'medium', 'high'] as const),
    model_version: Type.Integer({ description: 'Version of the estimate\'s model (docs/decisions.md).' }),
    null_reason: Nullable(Type.String()),
  },
  { $id: 'EstimateResponse' },
);
export type EstimateResponse = Static<typeof EstimateResponse>;

const FieldValue = Nullable(Type.Union([Type.Number(), Type.String(), Type.Boolean()]));

const FieldProvenance = Closed({
  layers: Type.Array(Closed({ source: Type.String(), layer_version: Type.String() })),
  formula_version: Nullable(Type.Integer()),
});

/** GET /v1/internal/utility-findings (D31): D34's values/null_reasons shape. */
export const UtilityFindingsResponse = Closed(
  {
    market: Type.String(),
    vintage_id: Type.String(),
    parcel_key: Type.String(),
    location: Closed({ lat: Type.Number(), lon: Type.Number() }, { description: 'The parcel\'s point the fields were evaluated at.' }),
    findings: Type.Record(Type.String(), FieldValue, { description: 'Every utility-layer field of the catalog.' }),
    null_reasons: Type.Record(Type.String(), Type.String(), { description: 'Why each null finding is null.' }),
    provenance: Type.Record(Type.String(), FieldProvenance, { description: 'The layer versions behind each finding.' }),
  },
  { $id: 'UtilityFindingsResponse' },
);
export type UtilityFindingsResponse = Static<typeof UtilityFindingsResponse>;
