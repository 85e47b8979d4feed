import type { RouteDef } from '../routes/route.js';
import { ErrorBody, ValidationErrorBody } from '../schemas/common.js';
import type { Schema } from '../validation/index.js';

export const API_VERSION = '0.2.0';

type Json = Record<string, any>;

/**
 * The OpenAPI 3.1.0 document, generated from the same route definitions the gateway validates
 * with, so the document cannot drift from behaviour. Schemas carrying `$id` are hoisted into
 * components and referenced.
 */
export function buildOpenApiDocument(routes: RouteDef[], serverUrl?: string): Json {
  const components: Record<string, Json> = {};
  const hoist = (schema: Schema | undefined): Json | undefined => {
    if (schema === undefined) return undefined;
    const plain = JSON.parse(JSON.stringify(schema)) as Json;
    return replaceIds(plain, components);
  };
  hoist(ErrorBody);
  hoist(ValidationErrorBody);

  const paths: Record<string, Json> = {};
  for (const route of routes) {
    if (route.hidden) continue;
    const parameters = [
      ...parametersOf(route.request.path, 'path', hoist),
      ...parametersOf(route.request.query, 'query', hoist),
      ...parametersOf(route.request.headers, 'header', hoist),
    ];
    const responses: Json = {};
    for (const [status, response] of Object.entries(route.responses)) {
      const contentType = response.contentType ?? 'application/json';
      responses[status] = {
        description: response.description,
        ...(response.schema || response.contentType
          ? { content: { [contentType]: { schema: response.schema ? hoist(response.schema) : { type: 'string', format: 'binary' } } } }
          : {}),
      };
    }
    responses['422'] ??= {
      description: 'Validation error (D1).',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } },
    };
    responses.default = {
      description: 'Error (D2): 401, 403, 404, 409, 429 and others.',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
    const operation: Json = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description && { description: route.description }),
      tags: [route.tag],
      ...(parameters.length > 0 && { parameters }),
      ...(route.request.body && {
        requestBody: {
          required: route.request.bodyRequired ?? false,
          content: { 'application/json': { schema: hoist(route.request.body) } },
        },
      }),
      responses,
      security: securityOf(route),
    };
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation;
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'landscreen',
      version: API_VERSION,
      description:
        'Parcel discovery, pipeline and diligence, and the point-data field catalog with credit pricing. ' +
        'Validation errors answer 422 with the pydantic-style body of D1; other errors answer {"detail","code"} (D2).',
    },
    ...(serverUrl && { servers: [{ url: serverUrl }] }),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        session: { type: 'http', scheme: 'bearer', description: 'A session token from /v1/auth/verify (D4).' },
        serviceTokenId: { type: 'apiKey', in: 'header', name: 'x-service-token-id', description: 'With the token secret as Bearer (D8).' },
      },
    },
  };
}

function securityOf(route: RouteDef): Json[] {
  if (route.security === 'session') return [{ session: [] }];
  if (route.security === 'service-token') return [{ session: [], serviceTokenId: [] }];
  return [];
}

function parametersOf(schema: Schema | undefined, location: 'path' | 'query' | 'header', hoist: (schema: Schema) => Json | undefined): Json[] {
  if (!schema?.properties) return [];
  const required = new Set<string>(schema.required ?? []);
  return Object.entries(schema.properties as Record<string, Schema>).map(([name, property]) => {
    const { description, ...rest } = hoist(property)!;
    return {
      name: location === 'header' && name === 'x-tenant' ? 'X-Tenant' : name,
      in: location,
      required: location === 'path' || required.has(name),
      ...(description && { description }),
      schema: rest,
    };
  });
}

function replaceIds(node: any, components: Record<string, Json>): any {
  if (Array.isArray(node)) return node.map((item) => replaceIds(item, components));
  if (node === null || typeof node !== 'object') return node;
  const copy: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key !== '$id') copy[key] = replaceIds(value, components);
  }
  if (typeof node.$id === 'string') {
    components[node.$id] = copy;
    return { $ref: `#/components/schemas/${node.$id}` };
  }
  return copy;
}
