import { Type } from '@sinclair/typebox';
import { Closed, Str, TenantHeaders } from './common.js';

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

/** A billed POST's headers: the tenant's, and an optional Idempotency-Key (D34). */
export const BilledHeaders = Type.Object({
  ...TenantHeaders.properties,
  'idempotency-key': Type.Optional(
    Str(1, 255, { description: 'Replays the stored answer for 24 h without charging again; another body with the same key is 422 idempotency_key_reused.' }),
  ),
});

// The answers of these routes: @landscreen/api-schemas.
export { FetchBatchResponse, InsufficientCreditsBody, LookupResponse, SourcesResponse, UsageResponse } from '@landscreen/api-schemas';
