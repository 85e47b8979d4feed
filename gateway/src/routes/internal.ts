import { EstimateHeaders, EstimateRequest, ServiceTokenHeaders, UtilityFindingsQuery } from '../schemas/internal.js';
import { json } from './responses.js';
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
    responses: { 200: json('{"estimate_mw":{"low","high"},"basis","confidence"} (D31).') },
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
    responses: { 200: json('The utility findings (D31).') },
  },
];
