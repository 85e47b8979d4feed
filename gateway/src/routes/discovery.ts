import { TenantHeaders } from '../schemas/common.js';
import {
  DirectPromoteRequest,
  DiscoveryExportLinkQuery,
  DiscoveryExportQuery,
  DiscoveryExportRequest,
  DiscoveryQueryRequest,
  DiscoveryQueryResponse,
  ParcelResolveRequest,
  ParcelResolveResponse,
  PromoteRequest,
  PromoteResponse,
} from '../schemas/discovery.js';
import { BODY_LIMITS } from './body-limits.js';
import { errors, file, json, SIGNED_IN } from './responses.js';
import { READERS, WRITERS } from './roles.js';
import { asCaller, toJsonBytes } from './call.js';
import { discoveryPageJson } from '../views/discovery-page.js';
import { parcelResolveJson } from '../views/parcel-resolve.js';
import type { RouteDef } from './route.js';
import { promotionJson } from '../views/promotion.js';
import { EXPORT_MEDIA_TYPES } from './export-answer.js';
import { rankingExport } from './ranking-export.js';

const EXPORT_ANSWERS = {
  200: file(
    'The ranking as a file, every eligible parcel in rank order: its polygon (else its point), rank, parcel_key, apn, address, score, verdict, review_required, unknowns, acres, developable_acres, lat, lon, then a column per fact.',
    EXPORT_MEDIA_TYPES,
  ),
  ...errors([...SIGNED_IN, 404, 409], {
    404: 'buy_box_not_found or market_not_found.',
    409: 'market_not_loaded: the market has no prepared vintage.',
    413: 'export_too_large: a Shapefile holds at most 100,000 parcels (use gpkg, geojson, csv or kml); or payload_too_large.',
  }),
};

export const discoveryRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/v2/discovery/query',
    operationId: 'discoveryQuery',
    summary: 'Rank a market against a buy box',
    description:
      'Reads stored parcel facts only (D13-D16). `fields` chooses the facts (and provenance) each result shows; numbers in facts and evidence are rounded per their unit (D40). Graded preferences score a share of their weight (D41).',
    tag: 'discovery',
    security: 'session',
    roles: READERS,
    request: { headers: TenantHeaders, body: DiscoveryQueryRequest, bodyRequired: true },
    bodyLimit: BODY_LIMITS.draft,
    responses: {
      200: json('One page of ranked parcels with evidence.', DiscoveryQueryResponse),
      ...errors([...SIGNED_IN, 404, 409], { 404: 'buy_box_not_found or market_not_found.', 409: 'market_not_loaded: the market has no prepared vintage.' }),
    },
    handler: async ({ request, caller, raw, deps }) => {
      const { buy_box: buyBox, draft, limit, cursor, fields } = request.body;
      const answer = await deps.clients.discovery.query(
        { buyBox, draftJson: draft ? toJsonBytes(draft) : undefined, limit, cursor: cursor ?? undefined, fields: fields ?? [] },
        asCaller(caller, raw.id),
      );
      return { status: 200, json: discoveryPageJson(answer) };
    },
  },
  {
    method: 'POST',
    path: '/v2/discovery/export',
    operationId: 'exportDiscovery',
    summary: 'A ranking as a file',
    description:
      'D40: the whole ranking of a buy box (or of a draft) as GeoJSON, KML, CSV, a zipped Shapefile or a GeoPackage, streamed as discovery pages it. `fields` chooses the fact columns (default: the facts the rules read); numbers are rounded per unit.',
    tag: 'discovery',
    security: 'session',
    roles: READERS,
    request: { headers: TenantHeaders, query: DiscoveryExportQuery, body: DiscoveryExportRequest, bodyRequired: true },
    bodyLimit: BODY_LIMITS.draft,
    responses: EXPORT_ANSWERS,
    handler: async ({ request, caller, raw, deps }) => {
      const { buy_box: buyBox, draft, fields } = request.body;
      return rankingExport(deps, caller, raw.id, { buyBox, draft: draft ?? undefined, fields: fields ?? undefined, format: request.query.format });
    },
  },
  {
    method: 'GET',
    path: '/v2/discovery/export',
    operationId: 'exportDiscoveryLink',
    summary: 'A saved buy box\'s ranking as a file, by URL',
    description: 'D40: as POST /v2/discovery/export for a saved buy box, with the facts its rules read: a URL a link or a button can name.',
    tag: 'discovery',
    security: 'session',
    roles: READERS,
    request: { headers: TenantHeaders, query: DiscoveryExportLinkQuery },
    responses: EXPORT_ANSWERS,
    handler: async ({ request, caller, raw, deps }) => rankingExport(deps, caller, raw.id, { buyBox: request.query.buy_box, format: request.query.format }),
  },
  {
    method: 'POST',
    path: '/v2/parcels/resolve',
    operationId: 'resolveParcel',
    summary: 'Find a parcel by APN or address',
    tag: 'discovery',
    security: 'session',
    roles: READERS,
    request: { headers: TenantHeaders, body: ParcelResolveRequest, bodyRequired: true },
    responses: {
      200: json('resolved, ambiguous or not_found, with candidates (D17).', ParcelResolveResponse),
      ...errors([...SIGNED_IN, 404, 409], { 404: 'market_not_found.', 409: 'market_not_loaded.' }),
    },
    handler: async ({ request, caller, raw, deps }) => {
      const { market, apn, address } = request.body;
      const answer = await deps.clients.discovery.resolve({ market, apn: apn ?? undefined, address: address ?? undefined }, asCaller(caller, raw.id));
      return { status: 200, json: parcelResolveJson(answer) };
    },
  },
  {
    method: 'POST',
    path: '/v2/pipeline',
    operationId: 'promote',
    summary: 'Promote a ranked parcel to the pipeline',
    description: 'Refuses a parcel failing a must-have with 409 must_failed (D19).',
    tag: 'discovery',
    security: 'session',
    roles: WRITERS,
    request: { headers: TenantHeaders, body: PromoteRequest, bodyRequired: true },
    bodyLimit: BODY_LIMITS.draft,
    responses: {
      202: json('The four ids and `created` or `existing`.', PromoteResponse),
      ...errors([...SIGNED_IN, 404, 409], {
        404: 'buy_box_not_found, market_not_found or parcel_not_found.',
        409: 'must_failed (with `failed` evidence and `parcel_key`), stale_query, stale_vintage or market_not_loaded (D19).',
      }),
    },
    handler: async ({ request, caller, raw, deps }) => {
      const { parcel_key: parcelKey, buy_box: buyBox, query_hash: queryHash, draft } = request.body;
      const answer = await deps.clients.pipeline.promote(
        { parcelKey, buyBox, queryHash, draftJson: draft ? toJsonBytes(draft) : undefined },
        asCaller(caller, raw.id),
      );
      return { status: 202, body: promotionJson(answer.promotion!) };
    },
  },
  {
    method: 'POST',
    path: '/v2/pipeline/direct',
    operationId: 'promoteDirect',
    summary: 'Screen a parcel directly against a saved buy box',
    description: 'A parcel failing a must-have is saved with verdict HOLD and its failed evidence (D19).',
    tag: 'discovery',
    security: 'session',
    roles: WRITERS,
    request: { headers: TenantHeaders, body: DirectPromoteRequest, bodyRequired: true },
    responses: {
      202: json('The four ids and `created` or `existing`.', PromoteResponse),
      ...errors([...SIGNED_IN, 404, 409], { 404: 'buy_box_not_found, market_not_found, vintage_not_found or parcel_not_found.', 409: 'stale_vintage or market_not_loaded (D19).' }),
    },
    handler: async ({ request, caller, raw, deps }) => {
      const { parcel_key: parcelKey, buy_box: buyBox, vintage_id: vintageId } = request.body;
      const answer = await deps.clients.pipeline.promoteDirect({ parcelKey, buyBox, vintageId: vintageId ?? undefined }, asCaller(caller, raw.id));
      return { status: 202, body: promotionJson(answer.promotion!) };
    },
  },
];
