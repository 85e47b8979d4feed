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
