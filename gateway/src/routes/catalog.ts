import { TenantHeaders } from '../schemas/common.js';
import {
  BilledHeaders,
  FetchBatchRequest,
  FetchBatchResponse,
  FieldsQuery,
  LookupRequest,
  LookupResponse,
  SourcesResponse,
  UsageResponse,
} from '../schemas/catalog.js';
import { billingHeaders } from './billing-headers.js';
import { asCaller } from './call.js';
import { sourceListJson } from '../views/source.js';
import { runRoutes } from './runs.js';
import { catalogPageJson } from '../views/catalog-page.js';
import { fetchBatchJson } from '../views/fetch-result.js';
import { lookupJson } from '../views/lookup.js';
import { priceListJson } from '../views/price-list.js';
import { usageJson } from '../views/usage.js';
import { CatalogPage, PriceList } from '@landscreen/api-schemas';
import { BILLED_422, errors, json, SIGNED_IN } from './responses.js';
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
    responses: { 200: json('The catalog page: billing and field records.', CatalogPage), ...errors([]) },
    handler: async ({ request }) => ({ status: 200, json: catalogPageJson(request.query) }),
  },
  {
    method: 'GET',
    path: '/v1/meta/plans',
    operationId: 'listPlans',
    summary: 'The price list: credit costs and plans',
    tag: 'catalog',
    security: 'none',
    request: {},
    responses: { 200: json('{"credits","plans"} exactly as the catalog spec gives them.', PriceList), ...errors([]) },
    handler: async ({ deps }) => {
      return { status: 200, json: priceListJson(await deps.clients.catalog.listPlans({})) };
    },
  },
  {
    method: 'GET',
    path: '/v1/meta/sources',
    operationId: 'listSources',
    summary: 'The point-data sources: geometry, properties read, fields fed, current layer',
    description: 'Each layer source the engine reads, with the layer version loaded for it now, if any.',
    tag: 'catalog',
    security: 'none',
    request: {},
    responses: { 200: json('Every layer source.', SourcesResponse), ...errors([]) },
    handler: async ({ deps }) => {
      const { sources } = await deps.clients.catalog.listSources({});
      return { status: 200, body: sourceListJson(sources) };
    },
  },
  {
    method: 'POST',
    path: '/v1/fetch/batch',
    operationId: 'fetchBatch',
    summary: 'Fetch point-data fields for up to 1,000 locations',
    description:
      'Billed in credits by the three billing rules before values are returned (D34); `dry_run` answers the quote. ' +
      'Headers on every billed answer: X-Credits-Charged, X-Credits-Remaining, X-RateLimit-Limit, X-RateLimit-Remaining ' +
      '(Idempotent-Replayed: true on a replay). 402 insufficient_credits {required, remaining}; 429 rate_limited with Retry-After; ' +
      '422 idempotency_key_reused. An answer whose JSON would exceed 32 MiB (long text values of many locations and fields) is ' +
      '413 answer_too_large {answer_bytes, limit_bytes, runs} before anything is charged: ask for less, or POST the same body to /v1/runs.',
    tag: 'catalog',
    security: 'session',
    roles: WRITERS,
    request: { headers: BilledHeaders, body: FetchBatchRequest, bodyRequired: true },
    responses: {
      200: json('Values per location, in the order of `locations`, and the credits.', FetchBatchResponse),
      ...errors([...SIGNED_IN, 402, 429], {
        413: 'payload_too_large: the body is over the route\'s limit; or answer_too_large: the answer would exceed 32 MiB of JSON (nothing charged; use /v1/runs).',
        422: BILLED_422,
        429: 'rate_limited: the plan\'s rpm is used up this minute; Retry-After says when to retry.',
      }),
    },
    handler: async ({ request, caller, raw, deps }) => {
      const { locations, fields, preset, dry_run: dryRun } = request.body;
      const answer = await deps.clients.catalog.fetchBatch(
        { locations, fields: fields ?? [], preset, dryRun: dryRun ?? false, idempotencyKey: request.headers['idempotency-key'] },
        asCaller(caller, raw.id),
      );
      return { status: 200, json: Buffer.from(fetchBatchJson(answer)), headers: billingHeaders(answer.billing) };
    },
  },
  // D35: POST/GET/DELETE /v1/runs… (gateway/src/routes/runs.ts).
  ...runRoutes,
  {
    method: 'POST',
    path: '/v1/lookup',
    operationId: 'lookup',
    summary: 'Geocode an address or a point, optionally resolving the parcel',
    description:
      'An address geocoded against the loaded parcels\' addresses (normalised, then trigram), or a point; with include_parcel the ' +
      'parcel-record fields (exact intersect, else nearest within radius_m). Billed the geocode cost, or the plan\'s resolve_credits ' +
      'with include_parcel (D35); an address matching nothing is 404 address_not_found, not charged. Billing headers as /v1/fetch/batch.',
    tag: 'catalog',
    security: 'session',
    roles: WRITERS,
    request: { headers: BilledHeaders, body: LookupRequest, bodyRequired: true },
    responses: {
      200: json('{"query","match","parcel"?,"credits"} (docs/decisions.md, "POST /v1/lookup").', LookupResponse),
      ...errors([...SIGNED_IN, 402, 404, 409, 429], {
        404: 'address_not_found (nothing charged) or market_not_found.',
        409: 'market_not_loaded.',
        422: BILLED_422,
        429: 'rate_limited, with Retry-After.',
      }),
    },
    handler: async ({ request, caller, raw, deps }) => {
      const { address, lat, lon, market, include_parcel: includeParcel, radius_m: radiusM } = request.body;
      const answer = await deps.clients.catalog.lookup(
        { address, lat, lon, market, includeParcel: includeParcel ?? false, radiusM, idempotencyKey: request.headers['idempotency-key'] },
        asCaller(caller, raw.id),
      );
      return { status: 200, json: Buffer.from(lookupJson(answer)), headers: billingHeaders(answer.billing) };
    },
  },
  {
    method: 'GET',
    path: '/v1/usage',
    operationId: 'getUsage',
    summary: 'The tenant\'s plan and this UTC month\'s credits',
    description: 'Free and not rate-limited (D34): plan, month, included, charged, remaining, rpm and the month\'s credits by operation.',
    tag: 'catalog',
    security: 'session',
    roles: READERS,
    request: { headers: TenantHeaders },
    responses: { 200: json('The usage of the current UTC month.', UsageResponse), ...errors(SIGNED_IN) },
    handler: async ({ caller, raw, deps }) => {
      return { status: 200, body: usageJson(await deps.clients.catalog.getUsage({}, asCaller(caller, raw.id))) };
    },
  },
];
