import type { ResponseSpec, RouteDef } from '../routes/route.js';
import { ErrorBody, ValidationErrorBody } from '../schemas/common.js';
import type { Schema } from '../validation/index.js';

export const API_VERSION = '0.2.0';

type Json = Record<string, any>;

export interface OpenApiOptions {
  serverUrl?: string;
  /** Include the routes marked hidden (the tests' response check reads the pages' answers too). */
  includeHidden?: boolean;
}

/**
 * The OpenAPI 3.1.0 document, generated from the same route definitions the gateway validates
 * with, so the document cannot drift from behaviour. Schemas carrying `$id` are hoisted into
 * components and referenced.
 */
export function buildOpenApiDocument(routes: RouteDef[], options: string | OpenApiOptions = {}): Json {
  const { serverUrl, includeHidden = false } = typeof options === 'string' ? { serverUrl: options } : options;
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
    if (route.hidden && !includeHidden) continue;
    const parameters = [
      ...parametersOf(route.request.path, 'path', hoist),
      ...parametersOf(route.request.query, 'query', hoist),
      ...parametersOf(route.request.headers, 'header', hoist),
    ];
    // Every status a route can answer is listed with its body: no `default` catch-all,
    // so a status the table does not list is one the route never answers.
    const responses: Json = {};
    for (const [status, response] of Object.entries(route.responses)) {
      responses[status] = { description: response.description, ...contentOf(response, hoist) };
    }
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
        'Validation errors answer 422 with the pydantic-style body of D1; other errors answer {"detail","code"} (D2). ' +
        'Every operation lists each status it can answer with the schema of its body; `x-open-record` marks a record the spec calls open ' +
        '(expect fields to be added to it).',
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

/** A JSON answer's schema, or a file's content type(s) as binary strings; nothing for 204. */
function contentOf(response: ResponseSpec, hoist: (schema: Schema) => Json | undefined): Json {
  if (response.schema === undefined && response.contentType === undefined) return {};
  const types = [response.contentType ?? 'application/json'].flat();
  const schema = response.schema ? hoist(response.schema) : { type: 'string', format: 'binary' };
  const files = (response.alsoFiles ?? []).map((type) => [type, { schema: { type: 'string', format: 'binary' } }]);
  return { content: Object.fromEntries([...types.map((type) => [type, { schema }]), ...files]) };
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
    // Two different schemas under one name would make every $ref to it ambiguous.
    const known = components[node.$id];
    if (known !== undefined && JSON.stringify(known) !== JSON.stringify(copy)) throw new Error(`two different schemas are named ${node.$id}`);
    components[node.$id] = copy;
    return { $ref: `#/components/schemas/${node.$id}` };
  }
  return copy;
}
