import { Type } from '@sinclair/typebox';
import { Closed, Nullable, Str, TenantHeaders, Uuid } from './common.js';

export const FieldsQuery = Type.Object({
  layer: Type.Optional(Str(1, 64)),
  preset: Type.Optional(Str(1, 64)),
  name: Type.Optional(Str(1, 100)),
});

const Location = Closed({
  lat: Type.Number({ minimum: -90, maximum: 90 }),
  lon: Type.Number({ minimum: -180, maximum: 180 }),
  id: Type.Optional(Str(1, 128, { description: 'The caller\'s own id, echoed back.' })),
});

const selection = {
  fields: Type.Optional(Type.Array(Str(1, 100), { minItems: 1, maxItems: 500, description: 'Catalog field names.' })),
  preset: Type.Optional(Str(1, 64, { description: 'A named bundle of fields.' })),
  dry_run: Type.Optional(Type.Boolean({ default: false, description: 'Quote the credits without charging or fetching.' })),
};

export const FetchBatchRequest = Closed(
  { locations: Type.Array(Location, { minItems: 1, maxItems: 1000 }), ...selection },
  { $id: 'FetchBatchRequest', description: 'D34: at most 1,000 locations; `fields` and/or `preset`.' },
);

export const RunRequest = Closed(
  { locations: Type.Array(Location, { minItems: 1, maxItems: 100000 }), ...selection },
  { $id: 'RunRequest', description: 'D35: an asynchronous batch of up to 100,000 locations.' },
);

export const RunPath = Type.Object({ run_id: Type.String() });

export const LookupRequest = Closed(
  {
    address: Type.Optional(Str(1, 500)),
    lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
    lon: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
    market: Type.Optional(Str(1, 100)),
    include_parcel: Type.Optional(Type.Boolean({ default: false })),
    radius_m: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1000, default: 250, description: 'How far the nearest parcel may be from the point, meters.' })),
  },
  { $id: 'LookupRequest', description: 'D35: an address or a point (lat and lon).' },
);

const LayerVersion = Closed(
  {
    id: Uuid(),
    name: Type.String(),
    format: Type.Union(['geojson', 'ndjson', 'csv', 'shapefile', 'geotiff'].map((format) => Type.Literal(format))),
    file_name: Type.String(),
    crs: Type.String({ description: 'The CRS the file was in, as it named it.' }),
    feature_count: Type.Integer({ description: 'Features of a vector layer; cells of a grid.' }),
    bbox: Nullable(Type.Array(Type.Number(), { minItems: 4, maxItems: 4, description: 'WGS84 [min_lon, min_lat, max_lon, max_lat].' })),
    loaded_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'LayerVersion' },
);

const SourceRecord = Closed(
  {
    id: Type.String(),
    geometry: Type.Union(['points', 'lines', 'polygons', 'mixed', 'grid'].map((kind) => Type.Literal(kind))),
    properties: Type.Array(Closed({ name: Type.String(), type: Type.Union(['string', 'number', 'integer', 'boolean'].map((kind) => Type.Literal(kind))) }), {
      description: 'The feature properties the source reads (`landscreen import layer --map` renames a file\'s attributes onto them).',
    }),
    band: Nullable(Type.String(), { description: 'For a grid: what its band holds, in which unit.' }),
    fields: Type.Array(Type.String(), { description: 'The catalog fields computed from the source.' }),
    source_url: Type.String(),
    current_version: Nullable(LayerVersion, { description: 'The layer version answering now; null when none is loaded.' }),
  },
  { $id: 'SourceRecord' },
);

export const SourcesResponse = Closed({ sources: Type.Array(SourceRecord) }, { $id: 'SourcesResponse' });

/** A billed POST's headers: the tenant's, and an optional Idempotency-Key (D34). */
export const BilledHeaders = Type.Object({
  ...TenantHeaders.properties,
  'idempotency-key': Type.Optional(
    Str(1, 255, { description: 'Replays the stored answer for 24 h without charging again; another body with the same key is 422 idempotency_key_reused.' }),
  ),
});

const FetchResult = Closed(
  {
    id: Nullable(Type.String(), { description: 'The caller\'s id; null when it gave none.' }),
    lat: Type.Number(),
    lon: Type.Number(),
    values: Type.Object({}, { additionalProperties: true, description: 'Every field asked: its value, or null.' }),
    null_reasons: Type.Object({}, { additionalProperties: Type.String(), description: 'For each null value, why (no_coverage, none_within_radius, outside_conus, not_inside, …).' }),
  },
  { $id: 'FetchResult' },
);

export const FetchBatchResponse = Closed(
  {
    results: Type.Array(FetchResult, { description: 'In the order of `locations`; empty for a dry run.' }),
    credits: Closed({
      charged: Type.Integer({ description: '0 for a dry run.' }),
      per_location: Type.Integer(),
      balance: Type.Integer({ description: 'The UTC month\'s balance after this request.' }),
    }),
  },
  { $id: 'FetchBatchResponse' },
);

const LookupMatch = Closed({
  lat: Type.Number(),
  lon: Type.Number(),
  address: Nullable(Type.String(), { description: 'The matched parcel address; for a point, the address of the parcel there (null when none).' }),
  score: Nullable(Type.Number(), { description: '1 for an address equal after normalisation, else its trigram similarity; null for a point.' }),
  match_type: Type.Union(['address_exact', 'address_similar', 'point'].map((kind) => Type.Literal(kind))),
  market: Nullable(Type.String()),
  parcel_key: Nullable(Type.String()),
});

export const LookupResponse = Closed(
  {
    query: Closed({
      address: Nullable(Type.String()),
      lat: Nullable(Type.Number()),
      lon: Nullable(Type.Number()),
      market: Nullable(Type.String()),
      include_parcel: Type.Boolean(),
      radius_m: Type.Number(),
    }),
    match: LookupMatch,
    parcel: Type.Optional(
      Closed(
        {
          values: Type.Object({}, { additionalProperties: true }),
          null_reasons: Type.Object({}, { additionalProperties: Type.String() }),
        },
        { description: 'With include_parcel: every parcel_record field at the match (exact intersect, else nearest within radius_m).' },
      ),
    ),
    credits: Closed({ charged: Type.Integer(), balance: Type.Integer() }),
  },
  { $id: 'LookupResponse' },
);

export const UsageResponse = Closed(
  {
    plan: Type.String(),
    month: Type.String({ description: 'YYYY-MM, UTC.' }),
    included: Type.Integer({ description: 'The plan\'s credits_included, plus the sign-up grant in the sign-up month.' }),
    charged: Type.Integer(),
    remaining: Type.Integer(),
    rpm: Type.Integer(),
    by_operation: Type.Object({}, { additionalProperties: Type.Integer(), description: 'The month\'s credits per operation (fetch, run, geocode, resolve), net of refunds.' }),
    signup_grant: Type.Integer({ description: 'Of `included`, the sign-up grant (0 outside the sign-up month).' }),
  },
  { $id: 'UsageResponse' },
);

/** 402 insufficient_credits (D34). */
export const InsufficientCreditsBody = Closed(
  { detail: Type.String(), code: Type.Literal('insufficient_credits'), required: Type.Integer(), remaining: Type.Integer() },
  { $id: 'InsufficientCredits' },
);
