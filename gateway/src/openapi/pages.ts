import { Type } from '@sinclair/typebox';
import { ErrorBody } from '@landscreen/api-schemas';
import { errors, file, json } from '../routes/responses.js';
import type { RouteDef } from '../routes/route.js';

/** The OpenAPI document itself: an open object (its paths and components are the contract). */
const OpenApiDocument = Type.Object(
  { openapi: Type.Literal('3.1.0'), info: Type.Object({ title: Type.String(), version: Type.String() }), paths: Type.Object({}), components: Type.Object({}) },
  { additionalProperties: true },
);

const page = (path: string, operationId: string, summary: string, responses: RouteDef['responses']): RouteDef => ({
  method: 'GET',
  path,
  operationId,
  summary,
  tag: 'pages',
  security: 'none',
  request: {},
  responses,
  hidden: true,
});

/**
 * What the gateway answers outside the route table — the document, its reference page and the
 * console (whose page also opens sign-in links) — declared like routes (and hidden from the document), so that the tests' check of
 * every answer (@landscreen/testing) knows them too.
 */
export const GATEWAY_PAGES: RouteDef[] = [
  page('/openapi.json', 'openapiDocument', 'The OpenAPI 3.1.0 document', { 200: json('The document.', OpenApiDocument), ...errors([]) }),
  page('/docs', 'docsPage', 'The interactive API reference', { 200: file('The page.', 'text/html'), ...errors([]) }),
  page('/docs/static/{file}', 'docsAsset', 'An asset of the reference page', {
    200: file('The asset.', ['text/css', 'application/javascript', 'image/png']),
    404: json('not_found: no such asset.', ErrorBody),
    ...errors([]),
  }),
  page('/', 'consolePage', 'The web console (D40)', { 200: file('The console\'s page.', 'text/html'), ...errors([]) }),
  page('/auth/verify', 'verifyPage', 'The page an emailed sign-in link opens', { 200: file('The console; it posts the token to /v1/auth/session.', 'text/html'), ...errors([]) }),
  page('/console/{file}', 'consoleFile', 'A file of the console: its code, MapLibre, the state and county outlines', {
    200: file('The file.', ['text/javascript', 'text/css', 'application/json']),
    304: { description: 'Not Modified: the If-None-Match ETag is still the file.' },
    404: json('not_found: no such file.', ErrorBody),
    ...errors([]),
  }),
];
