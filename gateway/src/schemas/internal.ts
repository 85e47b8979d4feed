import { Type } from '@sinclair/typebox';
import { Closed, Nullable, Str } from './common.js';

export const EstimateRequest = Closed(
  {
    latitude: Type.Number({ minimum: -90, maximum: 90 }),
    longitude: Type.Number({ minimum: -180, maximum: 180 }),
    state: Type.String({ pattern: '^[A-Za-z]{2}$' }),
    utility_key: Type.Optional(Nullable(Str(undefined, 128))),
    utility_name: Type.Optional(Nullable(Str(undefined, 256))),
    candidate_operators: Type.Optional(Type.Array(Type.String(), { maxItems: 2 })),
  },
  { $id: 'EstimateRequest' },
);

export const UtilityFindingsQuery = Type.Object({
  vintage_id: Str(undefined, 128),
  parcel_key: Str(undefined, 256),
});

export const ServiceTokenHeaders = Type.Object({
  authorization: Type.Optional(Type.String({ description: 'Bearer <service token secret> (D8).' })),
  'x-service-token-id': Type.Optional(Type.String({ description: 'Id of the service token (D8).' })),
});

export const EstimateHeaders = Type.Object({
  authorization: Type.Optional(Type.String()),
});

const MwRange = Closed({ low: Type.Number(), high: Type.Number() }, { description: 'Megawatts.' });

const HostingCapacityBasis = Closed(
  {
    kind: Type.Union([Type.Literal('substation'), Type.Literal('transmission_line')]),
    source: Type.String({ description: 'The layer source the feature came from.' }),
    layer_version: Type.String({ description: 'The layer version the feature came from.' }),
    distance_m: Type.Number({ description: 'Geodesic meters from the point to the feature.' }),
    voltage_kv: Nullable(Type.Number(), { description: 'The feature\'s voltage (a substation\'s max voltage); null when the layer does not give it.' }),
    status: Nullable(Type.String()),
    estimate_mw: MwRange,
  },
  { $id: 'HostingCapacityBasis' },
);

export const EstimateResponse = Closed(
  {
    estimate_mw: Nullable(MwRange, { description: 'Null when no grid layer is loaded (null_reason `no_coverage`).' }),
    basis: Type.Array(HostingCapacityBasis, { description: 'The nearest substation and transmission line, strongest first.' }),
    confidence: Type.Union([Type.Literal('low'), Type.Literal('medium'), Type.Literal('high')]),
    model_version: Type.Integer({ description: 'Version of the estimate\'s model (docs/decisions.md).' }),
    null_reason: Nullable(Type.String()),
  },
  { $id: 'EstimateResponse' },
);

const FieldValue = Nullable(Type.Union([Type.Number(), Type.String(), Type.Boolean()]));

const FieldProvenance = Closed({
  layers: Type.Array(Closed({ source: Type.String(), layer_version: Type.String() })),
  formula_version: Nullable(Type.Integer()),
});

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
