import { Type, type Static } from '@sinclair/typebox';
import { Closed, Nullable, OneOf, Timestamp, Uuid } from './building-blocks.js';

// The point-data catalog and its pricing (spec: "Point Data Field Catalog and Credit Pricing").

export const LAYERS = ['terrain', 'land_cover', 'built_environment', 'utilities', 'parcels', 'climate', 'hazards'] as const;
export const FIELD_TYPES = ['float', 'int', 'bool', 'string', 'str'] as const;
const PlanCredits = Type.Record(Type.String(), Type.Integer(), { description: 'Keyed by plan id.' });

export const FieldRecord = Closed(
  {
    name: Type.String(),
    layer: OneOf(LAYERS),
    description: Type.String(),
    interpretation_hints: Type.String({ description: 'May be empty.' }),
    type: OneOf(FIELD_TYPES, { description: '`str` is how the spec spells a few string fields.' }),
    unit: Nullable(Type.String()),
    nullable: Type.Boolean(),
    null_meaning: Nullable(Type.String(), { description: 'Null exactly when the field is not nullable.' }),
    ttl_seconds: Type.Integer(),
    presets: Type.Array(Type.String()),
    lifecycle: Type.Literal('stable'),
    billing: Closed({
      credits_per_location: Nullable(Type.Integer(), { description: 'Null for a metered-group field, priced per group.' }),
      metered_group: Nullable(Type.String()),
    }),
    derivation: Nullable(Closed({ formula: Type.String(), formula_version: Type.Integer(), inputs: Type.Array(Type.String()) })),
    source: Type.String(),
    source_url: Type.String(),
    enum: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Number()]), { description: 'The closed set of values the spec states for the field.' })),
  },
  { $id: 'FieldRecord' },
);
export type FieldRecord = Static<typeof FieldRecord>;

/** GET /v1/meta/fields (D33): the catalog page. */
export const CatalogPage = Closed(
  {
    billing: Closed({
      fetch_credits_per_field: Type.Integer(),
      unit: Type.Literal('credits'),
      note: Type.String(),
      metered_groups: Closed({
        parcel_record: Closed({ credits_per_location_by_plan: PlanCredits, fields: Type.Array(Type.String()), note: Type.String() }),
      }),
    }),
    fields: Type.Array(FieldRecord),
  },
  { $id: 'CatalogPage' },
);
export type CatalogPage = Static<typeof CatalogPage>;

export const Plan = Closed(
  {
    id: Type.String(),
    name: Type.String(),
    credits_included: Type.Integer(),
    field_requests_included: Type.Integer(),
    field_requests_signup_grant: Type.Integer(),
    overage_rate_usd_per_1k: Type.Null({ description: 'No overage rate applies.' }),
    price_usd_month: Type.Integer(),
    resolve_credits: Type.Integer(),
    resolve_enabled: Type.Boolean(),
    rpm: Type.Integer(),
  },
  { $id: 'Plan' },
);
export type Plan = Static<typeof Plan>;

/** GET /v1/meta/plans: the price list body, exactly as the spec gives it. */
export const PriceList = Closed(
  {
    credits: Closed({
      batch_note: Type.String(),
      costs: Closed({
        ask: Type.Integer(),
        ask_site: Type.Integer(),
        fetch_per_field: Type.Integer(),
        geocode: Type.Integer(),
        proximity_distance_min: Type.Integer(),
        proximity_labor_shed_min: Type.Integer(),
        proximity_nearest_min: Type.Integer(),
        proximity_per_address_locator: Type.Integer(),
        proximity_per_driving_calc: Type.Integer(),
        proximity_screen_min: Type.Integer(),
        resolve: Type.Null({ description: 'Priced per plan through resolve_credits.' }),
        site_register: Type.Integer(),
      }),
      overage_rate_usd_per_1k: Type.Null(),
      parcel_field_group: Type.Array(Type.String()),
      parcel_field_group_credits_by_plan: PlanCredits,
      parcel_field_group_note: Type.String(),
    }),
    plans: Type.Array(Plan),
  },
  { $id: 'PriceList' },
);
export type PriceList = Static<typeof PriceList>;

const LayerVersion = Closed(
  {
    id: Uuid(),
    name: Type.String(),
    format: OneOf(['geojson', 'ndjson', 'csv', 'shapefile', 'gpkg', 'filegdb', 'flatgeobuf', 'kml', 'kmz', 'xlsx', 'geotiff'] as const),
    file_name: Type.String(),
    crs: Type.String({ description: 'The CRS the file was in, as it named it.' }),
    feature_count: Type.Integer({ description: 'Features of a vector layer; cells of a grid.' }),
    bbox: Nullable(Type.Array(Type.Number(), { minItems: 4, maxItems: 4, description: 'WGS84 [min_lon, min_lat, max_lon, max_lat].' })),
    loaded_at: Timestamp(),
  },
  { $id: 'LayerVersion' },
);

const SourceRecord = Closed(
  {
    id: Type.String(),
    geometry: OneOf(['points', 'lines', 'polygons', 'mixed', 'grid'] as const),
    properties: Type.Array(Closed({ name: Type.String(), type: OneOf(['string', 'number', 'integer', 'boolean'] as const) }), {
      description: 'The feature properties the source reads (`landscreen import layer --map` renames a file\'s attributes onto them).',
    }),
    band: Nullable(Type.String(), { description: 'For a grid: what its band holds, in which unit.' }),
    fields: Type.Array(Type.String(), { description: 'The catalog fields computed from the source.' }),
    source_url: Type.String(),
    current_version: Nullable(LayerVersion, { description: 'The layer version answering now; null when none is loaded.' }),
  },
  { $id: 'SourceRecord' },
);

/** GET /v1/meta/sources. */
export const SourcesResponse = Closed({ sources: Type.Array(SourceRecord) }, { $id: 'SourcesResponse' });
export type SourcesResponse = Static<typeof SourcesResponse>;

const Values = Type.Object({}, { additionalProperties: true, description: 'Every field asked: its value, or null.' });
const NullReasons = Type.Object({}, { additionalProperties: Type.String(), description: 'For each null value, why (no_coverage, none_within_radius, outside_conus, not_inside, …).' });

const FetchResult = Closed(
  {
    id: Nullable(Type.String(), { description: 'The caller\'s id; null when it gave none.' }),
    lat: Type.Number(),
    lon: Type.Number(),
    values: Values,
    null_reasons: NullReasons,
  },
  { $id: 'FetchResult' },
);

/** POST /v1/fetch/batch (D34). */
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
export type FetchBatchResponse = Static<typeof FetchBatchResponse>;

/** POST /v1/lookup (D35; docs/decisions.md, "POST /v1/lookup"). */
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
    match: Closed({
      lat: Type.Number(),
      lon: Type.Number(),
      address: Nullable(Type.String(), { description: 'The matched parcel address; for a point, the address of the parcel there (null when none).' }),
      score: Nullable(Type.Number(), { description: '1 for an address equal after normalisation, else its trigram similarity; null for a point.' }),
      match_type: OneOf(['address_exact', 'address_similar', 'point'] as const),
      market: Nullable(Type.String()),
      parcel_key: Nullable(Type.String()),
    }),
    parcel: Type.Optional(
      Closed(
        { values: Values, null_reasons: NullReasons },
        { description: 'With include_parcel: every parcel_record field at the match (exact intersect, else nearest within radius_m).' },
      ),
    ),
    credits: Closed({ charged: Type.Integer(), balance: Type.Integer() }),
  },
  { $id: 'LookupResponse' },
);
export type LookupResponse = Static<typeof LookupResponse>;

/** GET /v1/usage (D34). */
export const UsageResponse = Closed(
  {
    plan: Type.String(),
    month: Type.String({ pattern: '^\\d{4}-\\d{2}$', description: 'YYYY-MM, UTC.' }),
    included: Type.Integer({ description: 'The plan\'s credits_included, plus the sign-up grant in the sign-up month.' }),
    charged: Type.Integer(),
    remaining: Type.Integer(),
    rpm: Type.Integer(),
    by_operation: Type.Object({}, { additionalProperties: Type.Integer(), description: 'The month\'s credits per operation (fetch, run, geocode, resolve), net of refunds.' }),
    signup_grant: Type.Integer({ description: 'Of `included`, the sign-up grant (0 outside the sign-up month).' }),
  },
  { $id: 'UsageResponse' },
);
export type UsageResponse = Static<typeof UsageResponse>;
