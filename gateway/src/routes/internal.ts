import { EstimateHeaders, EstimateRequest, EstimateResponse, ServiceTokenHeaders, UtilityFindingsQuery, UtilityFindingsResponse } from '../schemas/internal.js';
import { asCaller } from './call.js';
import { estimateRecord, utilityFindingsRecord } from '../views/internal-records.js';
import { errors, json, SIGNED_IN } from './responses.js';
import { INTERNAL } from './roles.js';
import type { RouteDef } from './route.js';

export const internalRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/v1/internal/hosting-capacity/estimate',
    operationId: 'estimateHostingCapacity',
    summary: 'Estimate grid hosting capacity near a point',
    tag: 'internal',
    security: 'session',
    roles: INTERNAL,
    request: { headers: EstimateHeaders, body: EstimateRequest, bodyRequired: true },
    description: 'An indicative MW range from the nearest substation and transmission line (model in docs/decisions.md); `estimate_mw` null with `null_reason` `no_coverage` when no grid layer is loaded.',
    responses: { 200: json('{"estimate_mw":{"low","high"},"basis","confidence"} (D31).', EstimateResponse), ...errors(SIGNED_IN) },
    handler: async ({ request, caller, raw, deps }) => {
      const body = request.body as { latitude: number; longitude: number; state: string; utility_key?: string | null; utility_name?: string | null; candidate_operators?: string[] };
      const estimate = await deps.clients.catalog.estimateHostingCapacity(
        {
          lat: body.latitude,
          lon: body.longitude,
          state: body.state,
          utilityKey: body.utility_key ?? undefined,
          utilityName: body.utility_name ?? undefined,
          candidateOperators: body.candidate_operators ?? [],
        },
        asCaller(caller, raw.id),
      );
      return { status: 200, body: estimateRecord(estimate) };
    },
  },
  {
    method: 'GET',
    path: '/v1/internal/utility-findings',
    operationId: 'getUtilityFindings',
    summary: 'Utility-side facts of a parcel in a vintage',
    tag: 'internal',
    security: 'service-token',
    roles: INTERNAL,
    request: { headers: ServiceTokenHeaders, query: UtilityFindingsQuery },
    description: 'The utility-layer fields of the catalog at the parcel\'s point, from the layers current now; 404 for an unknown vintage or parcel.',
    responses: {
      200: json('The utility findings (D31).', UtilityFindingsResponse),
      ...errors([...SIGNED_IN, 404, 409], { 404: 'vintage_not_found or parcel_not_found.', 409: 'parcel_without_location.' }),
    },
    handler: async ({ request, caller, raw, deps }) => {
      const { vintage_id, parcel_key } = request.query as { vintage_id: string; parcel_key: string };
      const answer = await deps.clients.catalog.getUtilityFindings({ vintageId: vintage_id, parcelKey: parcel_key }, asCaller(caller, raw.id));
      return { status: 200, body: utilityFindingsRecord(answer) };
    },
  },
];
