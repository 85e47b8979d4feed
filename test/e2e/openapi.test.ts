import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '@landscreen/testing';

const SPEC_DIR = new URL('../../docs/spec/', import.meta.url);
const DILIGENCE_PREFIX = '/v1/internal/diligence';

/** Every `| METHOD | /path |` row of both spec documents ('...' expands to the diligence prefix). */
function specEndpoints(): string[] {
  const endpoints = new Set<string>();
  for (const file of ['parcel-discovery-pipeline-diligence-api.md', 'point-data-catalog-and-pricing.md']) {
    const text = readFileSync(new URL(file, SPEC_DIR), 'utf8');
    for (const match of text.matchAll(/^\|\s*(GET|POST|PUT|PATCH|DELETE)\s*\|\s*(\S+)\s*\|/gm)) {
      endpoints.add(`${match[1]} ${match[2]!.replace(/^\.\.\./, DILIGENCE_PREFIX)}`);
    }
  }
  return [...endpoints].sort();
}

describe('the OpenAPI document', () => {
  let app: TestStack;
  let document: any;
  beforeAll(async () => {
    app = await startTestStack('pglite');
    document = (await app.get('/openapi.json')).body;
  });
  afterAll(() => app?.close());

  it('is OpenAPI 3.1.0 carrying API version 0.2.0', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('0.2.0');
  });

  it('lists every endpoint of both spec documents', () => {
    const documented = new Set(
      Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    const endpoints = specEndpoints();
    expect(endpoints.length).toBeGreaterThan(40);
    expect(endpoints.filter((endpoint) => !documented.has(endpoint))).toEqual([]);
  });

  it('routes every documented endpoint and none answers 500', async () => {
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(item)) {
        const concrete = path.replace(/\{[^}]+\}/g, 'x');
        const response = await app.request(method.toUpperCase(), concrete, method === 'get' || method === 'delete' ? {} : { body: {} });
        // A resource may be missing (404 not_found), but the route itself must exist.
        expect(String(response.body?.detail), `${method} ${path}`).not.toMatch(/^No route/);
        expect(response.status, `${method} ${path}`).not.toBe(500);
      }
    }
  });

  it('describes request bodies with the spec limits and rejects extra properties where the spec does', () => {
    const schemas = document.components.schemas;
    expect(schemas.DiscoveryQueryRequest.additionalProperties).toBe(false);
    expect(schemas.DiscoveryQueryRequest.properties.limit).toMatchObject({ minimum: 1, maximum: 200, default: 50 });
    expect(schemas.DiscoveryDraft.properties.markets).toMatchObject({ minItems: 1, maxItems: 1 });
    expect(schemas.PromoteRequest.properties.query_hash).toMatchObject({ minLength: 64, maxLength: 64 });
    expect(schemas.ClaimRequest.properties.lease_seconds).toMatchObject({ minimum: 60, maximum: 3600, default: 3600 });
    expect(schemas.HTTPValidationError).toBeDefined();
    expect(schemas.Error).toBeDefined();
  });

  it('declares the schema of every 2xx answer and the D1/D2 body of every error', () => {
    const resolve = (schema: any): any => (schema?.$ref ? document.components.schemas[schema.$ref.split('/').pop()] : schema);
    const trivial: string[] = [];
    const errorsMissing: string[] = [];
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(item)) {
        const name = `${method.toUpperCase()} ${path}`;
        const responses = operation.responses as Record<string, any>;
        expect(responses.default, name).toBeUndefined();
        const success = Object.entries(responses).filter(([status]) => status.startsWith('2'));
        expect(success.length, name).toBeGreaterThan(0);
        for (const [status, response] of success) {
          if (status === '204') {
            expect(response.content, name).toBeUndefined();
            continue;
          }
          for (const [type, media] of Object.entries(response.content as Record<string, any>)) {
            const schema = resolve(media.schema);
            if (!type.includes('json') || schema.format === 'binary') continue;
            // Non-trivial: an array of records, or an object naming its properties.
            const named = schema.type === 'array' || schema.anyOf || Object.keys(schema.properties ?? {}).length > 0;
            if (!named) trivial.push(`${name} ${status}`);
          }
        }
        // Every route answers D1 on a bad request and the D2 envelope on a failure.
        const bodyOf = (status: string) => resolve(responses[status]?.content?.['application/json']?.schema);
        if (bodyOf('422')?.properties?.detail?.type !== 'array' && !bodyOf('422')?.anyOf) errorsMissing.push(`${name} 422`);
        for (const status of Object.keys(responses).filter((code) => Number(code) >= 400 && code !== '422')) {
          const body = bodyOf(status);
          if (!body?.required?.includes('detail') || !body.required.includes('code')) errorsMissing.push(`${name} ${status}`);
        }
        for (const status of ['500', '503']) if (!responses[status]) errorsMissing.push(`${name} ${status} (undeclared)`);
        if (operation.security.length > 0) {
          for (const status of ['401', '403']) if (!responses[status]) errorsMissing.push(`${name} ${status} (undeclared)`);
        }
      }
    }
    expect(trivial).toEqual([]);
    expect(errorsMissing).toEqual([]);
  });

  it('publishes the response schemas as components, open records marked as such', () => {
    const schemas = document.components.schemas;
    expect(schemas.DiscoveryQueryResponse.additionalProperties).toBe(false);
    expect(schemas.PipelineItem).toMatchObject({ additionalProperties: true, 'x-open-record': true });
    expect(schemas.PipelineItem.required).toEqual(expect.arrayContaining(['id', 'stage', 'position', 'screen_status', 'property']));
    expect(schemas.Run.properties.status.anyOf.map((branch: any) => branch.const)).toEqual(['queued', 'running', 'succeeded', 'cancelled', 'failed']);
    const promote = document.paths['/v2/pipeline'].post.responses;
    expect(promote['202'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/PromoteResponse' });
    expect(promote['409'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(promote['422'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/HTTPValidationError' });
    const results = document.paths['/v1/runs/{run_id}/results'].get.responses['200'].content;
    expect(Object.keys(results)).toEqual([
      'application/x-ndjson',
      'text/csv',
      'application/geo+json',
      'application/vnd.google-earth.kml+xml',
      'application/zip',
      'application/geopackage+sqlite3',
    ]);
    // D40: the board's JSON, or the board as a file by `format`.
    expect(Object.keys(document.paths['/v1/pipeline'].get.responses['200'].content)).toEqual([
      'application/json',
      'application/geo+json',
      'application/vnd.google-earth.kml+xml',
      'text/csv',
      'application/zip',
      'application/geopackage+sqlite3',
    ]);
    expect(document.paths['/v1/deliveries/{delivery_id}/pdf'].get.responses['200'].content['application/pdf']).toBeDefined();
    expect(document.paths['/v1/fetch/batch'].post.responses['402'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/InsufficientCredits' });
  });

  it('has an interactive reference page at /docs whose assets load', async () => {
    const page = await app.get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.body).toContain('/openapi.json');
    for (const asset of page.body.matchAll(/(?:src|href)="(\/docs\/static\/[^"]+)"/g)) {
      const response = await app.get(asset[1]);
      expect(response.status, asset[1]).toBe(200);
    }
  });
});
