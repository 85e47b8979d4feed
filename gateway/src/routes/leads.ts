import { TenantHeaders } from '../schemas/common.js';
import { DeliveryPath, DeliveryQuery, LeadsFindBody, LeadsFindQuery, PropertyPath, RevealBody } from '../schemas/board.js';
import { DeliveryList, DeliveryRecord, LeadImportBody, LeadImportResponse, LeadRequestBody, LeadRequestList, LeadRequestRecord } from '../schemas/leads.js';
import { BODY_LIMITS } from './body-limits.js';
import { LeadsFindResponse, PropertyPage, RevealResponse } from '@landscreen/api-schemas';
import { errors, json, pdf, SIGNED_IN, REPORT_ERRORS } from './responses.js';
import { INTERNAL, READERS, WRITERS } from './roles.js';
import { asCaller, toJsonBytes } from './call.js';
import { deliveryPdfHandler, propertyPdfHandler } from './pdf-reports.js';
import { deliveryJson, deliveryListJson } from '../views/delivery.js';
import { DELIVERY_COLUMNS, deliveryFeature } from '../views/delivery-export.js';
import { checkExportSize, EXPORT_MEDIA_TYPES, exportAnswer, onePage } from './export-answer.js';
import { importReportJson, textCell } from '../views/lead-import.js';
import { leadRequestJson, leadRequestListJson } from '../views/lead-request.js';
import { foundLeadsJson } from '../views/found-leads.js';
import type { RouteDef } from './route.js';
import { propertyPageJson } from '../views/property.js';
import { revealJson } from '../views/contact.js';

export const leadRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/v1/lead-requests',
    operationId: 'createLeadRequest',
    summary: 'Request leads',
    tag: 'leads',
    security: 'session',
    roles: WRITERS,
    request: { headers: TenantHeaders, body: LeadRequestBody, bodyRequired: true },
    responses: {
      201: json('The lead request, `open` until the lead worker delivers it (D30).', LeadRequestRecord),
      ...errors([...SIGNED_IN, 404], { 404: 'buy_box_not_found: the tenant has no buy box of that name.' }),
    },
    handler: async ({ request, caller, raw, deps }) => {
      const { buy_box: buyBox, count, note } = request.body;
      const answer = await deps.clients.pipeline.createLeadRequest({ buyBox, count, note: note ?? undefined }, asCaller(caller, raw.id));
      return { status: 201, body: leadRequestJson(answer.leadRequest!) };
    },
  },
  {
    method: 'GET',
    path: '/v1/lead-requests',
    operationId: 'listLeadRequests',
    summary: 'List lead requests',
    tag: 'leads',
    security: 'session',
    roles: READERS,
    request: { headers: TenantHeaders },
    responses: { 200: json('The tenant\'s lead requests, newest first, with status and delivery id.', LeadRequestList), ...errors(SIGNED_IN) },
    handler: async ({ caller, raw, deps }) => {
      const answer = await deps.clients.pipeline.listLeadRequests({}, asCaller(caller, raw.id));
      return { status: 200, body: leadRequestListJson(answer.leadRequests) };
    },
  },
  {
    method: 'POST',
    path: '/v1/leads/import',
    operationId: 'importLeads',
    summary: 'Import leads',
    tag: 'leads',
    security: 'session',
    roles: WRITERS,
    description: 'Each row resolves by apn, address, the parcel at its lat/lon or a similar address; the answer reports every row in order (D30). Idempotent.',
    request: { headers: TenantHeaders, body: LeadImportBody, bodyRequired: true },
    bodyLimit: BODY_LIMITS.leadImport,
    responses: {
      201: json('A report per row: resolved, ambiguous, not_found or invalid.', LeadImportResponse),
      ...errors([...SIGNED_IN, 404, 409], { 404: 'market_not_found or buy_box_not_found.', 409: 'market_not_loaded.' }),
    },
    handler: async ({ request, caller, raw, deps }) => {
      const body = request.body;
      const answer = await deps.clients.pipeline.importLeads(
        {
          market: body.market,
          rows: body.rows.map((row: Record<string, unknown>) => ({
            ref: textCell(row.ref),
            apn: textCell(row.apn),
            address: textCell(row.address),
            lat: typeof row.lat === 'number' ? row.lat : undefined,
            lon: typeof row.lon === 'number' ? row.lon : undefined,
          })),
          buyBox: body.buy_box ?? undefined,
          addToPipeline: body.add_to_pipeline === true,
        },
        asCaller(caller, raw.id),
      );
      return { status: 201, body: importReportJson(answer) };
    },
  },
  {
    method: 'POST',
    path: '/v1/leads/find',
    operationId: 'findLeads',
    summary: 'Count or list the parcels matching a buy box',
    description:
      'Reads stored facts only; count_only is accepted as a query parameter or a body property (D29). With `fields`, each row also shows those facts and their provenance (D40).',
    tag: 'leads',
    security: 'session',
    roles: READERS,
    request: { headers: TenantHeaders, query: LeadsFindQuery, body: LeadsFindBody },
    bodyLimit: BODY_LIMITS.draft,
    responses: {
      200: json('{"count","by_verdict"} and, without count_only, "rows".', LeadsFindResponse),
      ...errors([...SIGNED_IN, 404, 409], { 404: 'buy_box_not_found or market_not_found.', 409: 'market_not_loaded.' }),
    },
    handler: async ({ request, caller, raw, deps }) => {
      const body = request.body ?? {};
      const answer = await deps.clients.discovery.findLeads(
        {
          buyBox: body.buy_box,
          draftJson: body.draft ? toJsonBytes(body.draft) : undefined,
          limit: Math.max(0, request.query.limit),
          // D29: count_only is accepted as a query parameter and as a body property.
          countOnly: request.query.count_only === true || body.count_only === true,
          fields: body.fields ?? [],
        },
        asCaller(caller, raw.id),
      );
      return { status: 200, json: Buffer.from(foundLeadsJson(answer, request.query.count_only === true || body.count_only === true)) };
    },
  },
  {
    method: 'GET',
    path: '/v1/deliveries',
    operationId: 'listDeliveries',
    summary: 'List deliveries',
    tag: 'deliveries',
    security: 'session',
    roles: READERS,
    request: { headers: TenantHeaders },
    responses: { 200: json('The tenant\'s deliveries, newest first.', DeliveryList), ...errors(SIGNED_IN) },
    handler: async ({ caller, raw, deps }) => {
      const answer = await deps.clients.pipeline.listDeliveries({}, asCaller(caller, raw.id));
      return { status: 200, body: deliveryListJson(answer.deliveries) };
    },
  },
  {
    method: 'GET',
    path: '/v1/deliveries/{delivery_id}',
    operationId: 'getDelivery',
    summary: 'A delivery: its request, buy box and leads by rank',
    tag: 'deliveries',
    security: 'session',
    roles: READERS,
    description: '`format=geojson|kml|csv|shapefile|gpkg` answers its leads as a file: a row per lead in rank order at its parcel\'s point (D40).',
    request: { headers: TenantHeaders, path: DeliveryPath, query: DeliveryQuery },
    responses: {
      200: { ...json('The delivery (D30); with `format`, its leads as a file (D40).', DeliveryRecord), alsoFiles: EXPORT_MEDIA_TYPES },
      ...errors([...SIGNED_IN, 404], { 404: 'delivery_not_found.' }),
    },
    handler: async ({ request, caller, raw, deps }) => {
      const answer = await deps.clients.pipeline.getDelivery({ deliveryId: request.path.delivery_id }, asCaller(caller, raw.id));
      const format = request.query.format;
      if (format === undefined) return { status: 200, body: deliveryJson(answer.delivery!) };
      const delivery = answer.delivery!;
      checkExportSize(format, delivery.leads.length);
      return exportAnswer(format, { name: 'delivery', columns: DELIVERY_COLUMNS, pages: onePage(delivery.leads.map(deliveryFeature)) }, `delivery-${delivery.id}`);
    },
  },
  {
    method: 'GET',
    path: '/v1/deliveries/{delivery_id}/pdf',
    operationId: 'getDeliveryPdf',
    summary: 'A delivery as a PDF report',
    tag: 'deliveries',
    security: 'session',
    roles: READERS,
    request: { headers: TenantHeaders, path: DeliveryPath },
    responses: { 200: pdf('The delivery report (D30).'), ...errors([...SIGNED_IN, 404], { 404: 'delivery_not_found.', ...REPORT_ERRORS }) },
    handler: deliveryPdfHandler,
  },
  {
    method: 'GET',
    path: '/v1/properties/{property_id}',
    operationId: 'getProperty',
    summary: 'A property: stored deep screen, contacts and diligence result',
    description: 'Never calls a provider and never advances a diligence job (D28).',
    tag: 'properties',
    security: 'session',
    roles: READERS,
    request: { headers: TenantHeaders, path: PropertyPath },
    responses: { 200: json('{"property","deep_screen","contacts","diligence"}.', PropertyPage), ...errors([...SIGNED_IN, 404], { 404: 'property_not_found.' }) },
    handler: async ({ request, caller, raw, deps }) => {
      const answer = await deps.clients.pipeline.getProperty({ propertyId: request.path.property_id }, asCaller(caller, raw.id));
      return { status: 200, body: propertyPageJson(answer) };
    },
  },
  {
    method: 'GET',
    path: '/v1/properties/{property_id}/pdf',
    operationId: 'getPropertyPdf',
    summary: 'The site report of a property as a PDF',
    tag: 'properties',
    security: 'session',
    roles: READERS,
    request: { headers: TenantHeaders, path: PropertyPath },
    responses: { 200: pdf('The site report (D30).'), ...errors([...SIGNED_IN, 404], { 404: 'property_not_found.', ...REPORT_ERRORS }) },
    handler: propertyPdfHandler,
  },
  {
    method: 'POST',
    path: '/v1/properties/{property_id}/reveal',
    operationId: 'revealContact',
    summary: 'Record a revealed contact and its cost (legacy; admin or worker)',
    tag: 'properties',
    security: 'session',
    roles: INTERNAL,
    request: { headers: TenantHeaders, path: PropertyPath, body: RevealBody, bodyRequired: true },
    responses: {
      201: json('{"contact", "ledger"}: the contact and its ledger row (D28); a repeated provider request answers the first.', RevealResponse),
      ...errors([...SIGNED_IN, 404, 409], { 404: 'property_not_found.', 409: 'amount_out_of_range or conflict: the provider request was revealed with another cost.' }),
    },
    handler: async ({ request, caller, raw, deps }) => {
      const { contact, provider, provider_request_id: providerRequestId, cost_usd: costUsd } = request.body;
      const answer = await deps.clients.diligence.revealContact(
        { propertyId: request.path.property_id, contactJson: toJsonBytes(contact), provider, providerRequestId: providerRequestId ?? undefined, costUsd },
        asCaller(caller, raw.id),
      );
      return { status: 201, body: revealJson(answer) };
    },
  },
];
