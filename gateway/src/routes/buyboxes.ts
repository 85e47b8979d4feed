import { Type } from '@sinclair/typebox';
import { TenantHeaders } from '../schemas/common.js';
import { BuyBoxName, BuyBoxRecord, CreateBuyBoxBody, ParseBuyBoxBody, ReplaceBuyBoxBody } from '../schemas/buybox.js';
import { BODY_LIMITS } from './body-limits.js';
import { BuyBoxList, ParseBuyBoxResponse } from '@landscreen/api-schemas';
import { errors, json, noContent, SIGNED_IN } from './responses.js';
import { READERS, WRITERS } from './roles.js';
import { asCaller, toJsonBytes } from './call.js';
import { buyBoxJson, buyBoxListJson, parsedBuyBoxJson } from '../views/buy-box.js';
import type { RouteDef } from './route.js';

const NamePath = Type.Object({ name: BuyBoxName });

export const buyBoxRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/v1/buyboxes',
    operationId: 'listBuyBoxes',
    summary: 'List the saved buy boxes',
    tag: 'buy boxes',
    security: 'session',
    roles: READERS,
    request: { headers: TenantHeaders },
    responses: { 200: json('The tenant\'s buy boxes.', BuyBoxList), ...errors(SIGNED_IN) },
    handler: async ({ caller, raw, deps }) => ({
      status: 200,
      json: Buffer.from(buyBoxListJson((await deps.clients.discovery.listBuyBoxes({}, asCaller(caller, raw.id))).buyBoxes)),
    }),
  },
  {
    method: 'POST',
    path: '/v1/buyboxes',
    operationId: 'createBuyBox',
    summary: 'Save a new buy box',
    tag: 'buy boxes',
    security: 'session',
    roles: WRITERS,
    request: { headers: TenantHeaders, body: CreateBuyBoxBody, bodyRequired: true },
    bodyLimit: BODY_LIMITS.draft,
    responses: { 201: json('The saved buy box (D9).', BuyBoxRecord), ...errors([...SIGNED_IN, 409], { 409: 'buy_box_exists: the tenant has a buy box of that name.' }) },
    handler: async ({ request, caller, raw, deps }) => {
      const { name, description, spec } = request.body;
      const created = await deps.clients.discovery.createBuyBox({ name, description: description ?? undefined, specJson: toJsonBytes(spec) }, asCaller(caller, raw.id));
      return { status: 201, json: Buffer.from(buyBoxJson(created.buyBox)) };
    },
  },
  {
    method: 'PUT',
    path: '/v1/buyboxes/{name}',
    operationId: 'replaceBuyBox',
    summary: 'Replace the spec of a saved buy box',
    tag: 'buy boxes',
    security: 'session',
    roles: WRITERS,
    request: { headers: TenantHeaders, path: NamePath, body: ReplaceBuyBoxBody, bodyRequired: true },
    bodyLimit: BODY_LIMITS.draft,
    responses: { 200: json('The updated buy box.', BuyBoxRecord), ...errors([...SIGNED_IN, 404], { 404: 'buy_box_not_found.' }) },
    handler: async ({ request, caller, raw, deps }) => {
      const { spec, description } = request.body;
      const replaced = await deps.clients.discovery.replaceBuyBox(
        { name: request.path.name, specJson: toJsonBytes(spec), description: description ?? undefined, clearDescription: description === null },
        asCaller(caller, raw.id),
      );
      return { status: 200, json: Buffer.from(buyBoxJson(replaced.buyBox)) };
    },
  },
  {
    method: 'DELETE',
    path: '/v1/buyboxes/{name}',
    operationId: 'deleteBuyBox',
    summary: 'Delete a saved buy box',
    tag: 'buy boxes',
    security: 'session',
    roles: WRITERS,
    request: { headers: TenantHeaders, path: NamePath },
    responses: { 204: noContent('Deleted.'), ...errors([...SIGNED_IN, 404], { 404: 'buy_box_not_found.' }) },
    handler: async ({ request, caller, raw, deps }) => {
      await deps.clients.discovery.deleteBuyBox({ name: request.path.name }, asCaller(caller, raw.id));
      return { status: 204 };
    },
  },
  {
    method: 'POST',
    path: '/v1/buyboxes/parse',
    operationId: 'parseBuyBox',
    summary: 'Turn buy-box text into a draft spec',
    description: 'The line-oriented language and common phrasings of D12.',
    tag: 'buy boxes',
    security: 'session',
    roles: READERS,
    request: { headers: TenantHeaders, body: ParseBuyBoxBody, bodyRequired: true },
    responses: { 200: json('{"draft","warnings"}: a draft to correct, and what the text did not say.', ParseBuyBoxResponse), ...errors(SIGNED_IN) },
    handler: async ({ request, caller, raw, deps }) => ({
      status: 200,
      json: Buffer.from(parsedBuyBoxJson(await deps.clients.discovery.parseBuyBox({ text: request.body.text }, asCaller(caller, raw.id)))),
    }),
  },
];
