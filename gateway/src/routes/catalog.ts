import { TenantHeaders } from '../schemas/common.js';
import { FetchBatchRequest, FieldsQuery, LookupRequest, RunPath, RunRequest, SourcesResponse } from '../schemas/catalog.js';
import { sourceRecord } from './catalog-sources.js';
import { BODY_LIMITS } from './body-limits.js';
import { json } from './responses.js';
import { READERS, WRITERS } from './roles.js';
import type { RouteDef } from './route.js';

export const catalogRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/v1/meta/fields',
    operationId: 'listFields',
    summary: 'The point-data field catalog',
    description: 'Filters: layer, preset, name (D33).',
    tag: 'catalog',
    security: 'none',
    request: { query: FieldsQuery },
    responses: { 200: json('The catalog page: billing and field records.') },
    handler: async ({ request, deps }) => {
      const { pageJson } = await deps.clients.catalog.listFields(request.query);
      return { status: 200, json: pageJson };
    },
  },
  {
    method: 'GET',
    path: '/v1/meta/plans',
    operationId: 'listPlans',
    summary: 'The price list: credit costs and plans',
    tag: 'catalog',
    security: 'none',
    request: {},
    responses: { 200: json('{"credits","plans"} exactly as the catalog spec gives them.') },
    handler: async ({ deps }) => {
      const { priceListJson } = await deps.clients.catalog.listPlans({});
      return { status: 200, json: priceListJson };
    },
  },
  {
    method: 'GET',
    path: '/v1/meta/sources',
    operationId: 'listSources',
    summary: 'The point-data sources: geometry, properties read, fields fed, current layer',
    description: 'Each layer source the engine reads (issue 12), with the layer version loaded for it now, if any.',
    tag: 'catalog',
    security: 'none',
    request: {},
    responses: { 200: json('Every layer source.', SourcesResponse) },
    handler: async ({ deps }) => {
      const { sources } = await deps.clients.catalog.listSources({});
      return { status: 200, body: { sources: sources.map(sourceRecord) } };
    },
  },
  {
    method: 'POST',
    path: '/v1/fetch/batch',
    operationId: 'fetchBatch',
    summary: 'Fetch point-data fields for up to 1,000 locations',
    description: 'Billed in credits before values are returned; 402 when the balance is short (D34).',
    tag: 'catalog',
    security: 'session',
    roles: WRITERS,
    request: { headers: TenantHeaders, body: FetchBatchRequest, bodyRequired: true },
    responses: { 200: json('Values per location and {"credits":{"charged","per_location","balance"}}.') },
  },
  {
    method: 'POST',
    path: '/v1/runs',
    operationId: 'createRun',
    summary: 'Start an asynchronous batch of up to 100,000 locations',
    tag: 'catalog',
    security: 'session',
    roles: WRITERS,
    request: { headers: TenantHeaders, body: RunRequest, bodyRequired: true },
    bodyLimit: BODY_LIMITS.run,
    responses: { 202: json('{"run_id","status"} (D35).') },
  },
  {
    method: 'GET',
    path: '/v1/runs/{run_id}',
    operationId: 'getRun',
    summary: 'Status, progress and results of a batch run',
    tag: 'catalog',
    security: 'session',
    roles: READERS,
    request: { headers: TenantHeaders, path: RunPath },
    responses: { 200: json('The run.') },
  },
  {
    method: 'POST',
    path: '/v1/lookup',
    operationId: 'lookup',
    summary: 'Geocode an address or a point, optionally resolving the parcel',
    tag: 'catalog',
    security: 'session',
    roles: WRITERS,
    request: { headers: TenantHeaders, body: LookupRequest, bodyRequired: true },
    responses: { 200: json('The location and, with include_parcel, the parcel (D35).') },
  },
];
