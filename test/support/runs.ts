import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { sql } from 'kysely';
import type { ProcessDatabase } from '@landscreen/db';
import { catalogDb, importLayer } from '@landscreen/catalog-service';
import { CsvRecordReader } from '@landscreen/parcel-io';
import { checkFetchResponse, type HttpClient } from '@landscreen/testing';
import { setPlan } from '../../services/catalog/src/billing/accounts.js';
import { sleep } from '../../packages/events/src/test-wait.js';

/** Test support for the run suites (D35): a layer to evaluate, a tenant on a plan, polling a run. */

export const headersOf = (tenant: string, role = 'admin') => ({ authorization: `Bearer dev:ada@${tenant}.test:${role}`, 'x-tenant': tenant });

/** Fields a run asks in these suites: two answered from the substations layer, one whose layer is never loaded (null, no_coverage). */
export const RUN_FIELDS = ['nearest_substation_distance_m', 'nearest_substation_max_voltage_kv', 'nearest_gas_pipeline_distance_m'];

/** Loads a small substations layer (a 6 x 6 grid of points around -97.5, 30.5) as the current version. */
export async function loadSubstations(db: ProcessDatabase): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'landscreen-runs-'));
  try {
    const features = [];
    for (let i = 0; i < 36; i++) {
      const lon = -98 + (i % 6) * 0.2;
      const lat = 30 + Math.floor(i / 6) * 0.2;
      features.push(JSON.stringify({ type: 'Feature', geometry: { type: 'Point', coordinates: [lon, lat] }, properties: { NAME: `S${i}`, KV: i % 3 === 0 ? null : 69 + i * 5 } }));
    }
    const file = path.join(dir, 'substations.geojson');
    await writeFile(file, `{"type":"FeatureCollection","features":[\n${features.join(',\n')}\n]}\n`);
    await importLayer(catalogDb(db), { source: 'hifld_substations', file, map: 'NAME=name,KV=max_voltage_kv' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Creates the tenant (its first request does) and puts it on `plan`. */
export async function tenantOnPlan(app: HttpClient, db: ProcessDatabase, tenant: string, plan: string): Promise<string> {
  expect((await app.get('/v1/me', { headers: headersOf(tenant) })).status).toBe(200);
  const { rows } = await sql<{ id: string }>`select id from auth.tenants where slug = ${tenant}`.execute(db);
  await setPlan(catalogDb(db), rows[0].id, plan, new Date());
  return rows[0].id;
}

/** `count` deterministic locations in the layer's area, ids `p1`… */
export function locations(count: number, seed = 1): { lat: number; lon: number; id: string }[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: count }, (_, i) => ({ lat: 29.9 + random() * 1.2, lon: -98.1 + random() * 1.2, id: `p${i + 1}` }));
}

/** Polls GET /v1/runs/{id} until the run leaves queued/running (the test's timeout bounds the wait). */
export async function settledRun(app: HttpClient, tenant: string, runId: string): Promise<any> {
  for (;;) {
    const response = await app.get(`/v1/runs/${runId}`, { headers: headersOf(tenant) });
    expect(response.status).toBe(200);
    if (!['queued', 'running'].includes(response.body.status)) return response.body;
    await sleep(100);
  }
}

/** A results file as text (the test client would parse NDJSON and GeoJSON as one JSON document). */
export async function resultsFile(baseUrl: string, tenant: string, runId: string, format: string): Promise<{ status: number; type: string; text: string }> {
  const url = new URL(`/v1/runs/${runId}/results`, baseUrl);
  url.searchParams.set('format', format);
  const response = await fetch(url, { headers: headersOf(tenant) });
  await checkFetchResponse('GET', response.url, response);
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}

/** The run's results as NDJSON, parsed. */
export async function ndjsonResults(app: { url: string }, tenant: string, runId: string): Promise<any[]> {
  const response = await resultsFile(app.url, tenant, runId, 'ndjson');
  expect(response.status).toBe(200);
  expect(response.type).toContain('application/x-ndjson');
  return response.text.split('\n').filter((line) => line.length > 0).map((line) => JSON.parse(line));
}

/** What /v1/fetch/batch answers for the same points, 1,000 at a time. */
export async function batchResults(app: HttpClient, tenant: string, points: { lat: number; lon: number; id?: string }[], fields: string[]): Promise<any[]> {
  const results: any[] = [];
  for (let start = 0; start < points.length; start += 1000) {
    const response = await app.post('/v1/fetch/batch', { locations: points.slice(start, start + 1000), fields }, { headers: headersOf(tenant) });
    expect(response.status).toBe(200);
    results.push(...response.body.results);
  }
  return results;
}

/** RFC 4180 records, read back with the parcel readers' CSV tokenizer. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  const reader = new CsvRecordReader();
  reader.push(text, (fields) => void records.push(fields));
  reader.end((fields) => void records.push(fields));
  return records;
}

export async function usage(app: HttpClient, tenant: string): Promise<{ charged: number; remaining: number; by_operation: Record<string, number> }> {
  const response = await app.get('/v1/usage', { headers: headersOf(tenant) });
  expect(response.status).toBe(200);
  return response.body;
}
