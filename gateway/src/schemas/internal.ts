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

// The answers of the internal routes: @landscreen/api-schemas.
export { EstimateResponse, UtilityFindingsResponse } from '@landscreen/api-schemas';
