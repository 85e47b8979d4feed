// Asynchronous runs (D35) in the embedded default: PGlite, the in-process bus and the runs worker
// inside the server, over HTTP — submission (JSON body and each upload format), billing at
// submission, progress, results in every format, idempotency, 402, and tenant isolation.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '@landscreen/testing';
import {
  batchResults,
  headersOf,
  loadSubstations,
  locations,
  ndjsonResults,
  parseCsv,
  resultsFile,
  RUN_FIELDS,
  settledRun,
  tenantOnPlan,
  usage,
} from '../support/runs.js';

describe('runs in the embedded default (PGlite, in-process bus and worker)', () => {
  let app: TestStack;
  const TENANT = 'runs-emb';
  const points = locations(2_345);

  beforeAll(async () => {
    app = await startTestStack('pglite', { runsWorker: true, config: { runs: { embedded: true, chunkSize: 500, leaseSeconds: 30, concurrency: 2 } } });
    await loadSubstations(app.stack.database.db);
    await tenantOnPlan(app, app.stack.database.db, TENANT, 'scale');
  });
  afterAll(async () => {
    await app?.close();
  });

  let runId: string;

  it('charges a run once at submission and answers 202 {"run_id","status"}', async () => {
    const before = await usage(app, TENANT);
    const response = await app.post('/v1/runs', { locations: points, fields: RUN_FIELDS }, { headers: headersOf(TENANT) });
    expect(response.status).toBe(202);
    expect(Object.keys(response.body).sort()).toEqual(['run_id', 'status']);
    expect(response.body.status).toBe('queued');
    // Three ordinary fields: 3 credits per location (billing rules 1 and 3).
    expect(response.headers.get('x-credits-charged')).toBe(String(3 * points.length));
    expect(Number(response.headers.get('x-credits-remaining'))).toBe(before.remaining - 3 * points.length);
    expect(response.headers.get('x-ratelimit-limit')).toBe('600');
    runId = response.body.run_id;
  });

  it('processes it in chunks to succeeded, with progress and timing', async () => {
    const run = await settledRun(app, TENANT, runId);
    expect(run).toMatchObject({
      run_id: runId,
      status: 'succeeded',
      fields: RUN_FIELDS,
      preset: null,
      progress: { done: points.length, total: points.length },
      credits: { per_location: 3, charged: 3 * points.length, refunded: 0 },
      error: null,
    });
    expect(Date.parse(run.created_at)).toBeLessThanOrEqual(Date.parse(run.started_at));
    expect(Date.parse(run.started_at)).toBeLessThanOrEqual(Date.parse(run.finished_at));
    // Charged once: the month's ledger holds exactly the submission for runs.
    expect((await usage(app, TENANT)).by_operation.run).toBe(3 * points.length);
  });

  it('streams NDJSON results in input order, each location once with its id, equal to /v1/fetch/batch', async () => {
    const results = await ndjsonResults(app, TENANT, runId);
    expect(results.map((result) => result.id)).toEqual(points.map((point) => point.id));
    expect(results[0]).toEqual({
      id: 'p1',
      lat: points[0].lat,
      lon: points[0].lon,
      values: expect.objectContaining({ nearest_gas_pipeline_distance_m: null }),
      null_reasons: expect.objectContaining({ nearest_gas_pipeline_distance_m: 'no_coverage' }),
    });
    expect(typeof results[0].values.nearest_substation_distance_m).toBe('number');
    expect(await batchResults(app, TENANT, points, RUN_FIELDS)).toEqual(results);
  });

  it('streams CSV that parses back to the same values', async () => {
    const response = await resultsFile(app.url, TENANT, runId, 'csv');
    expect(response.status).toBe(200);
    expect(response.type).toContain('text/csv');
    const [header, ...rows] = parseCsv(response.text);
    expect(header).toEqual(['id', 'lat', 'lon', ...RUN_FIELDS, 'null_reasons']);
    expect(rows).toHaveLength(points.length);
    const ndjson = await ndjsonResults(app, TENANT, runId);
    rows.forEach((row, n) => {
      const expected = ndjson[n];
      expect(row[0]).toBe(expected.id);
      expect(Number(row[1])).toBe(expected.lat);
      expect(Number(row[2])).toBe(expected.lon);
      RUN_FIELDS.forEach((field, f) => {
        const value = expected.values[field];
        expect(row[3 + f]).toBe(value === null ? '' : String(value));
      });
      const reasons = row[3 + RUN_FIELDS.length];
      expect(reasons === '' ? {} : JSON.parse(reasons)).toEqual(expected.null_reasons);
    });
  });

  it('streams a valid GeoJSON FeatureCollection of points', async () => {
    const response = await resultsFile(app.url, TENANT, runId, 'geojson');
    expect(response.status).toBe(200);
    expect(response.type).toContain('application/geo+json');
    const collection = JSON.parse(response.text);
    expect(collection.type).toBe('FeatureCollection');
    expect(collection.features).toHaveLength(points.length);
    const ndjson = await ndjsonResults(app, TENANT, runId);
    collection.features.forEach((feature: any, n: number) => {
      expect(feature).toEqual({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [ndjson[n].lon, ndjson[n].lat] },
        properties: { id: ndjson[n].id, values: ndjson[n].values, null_reasons: ndjson[n].null_reasons },
      });
    });
  });

  it('refuses an unknown result format with D1', async () => {
    const response = await app.get(`/v1/runs/${runId}/results`, { headers: headersOf(TENANT), query: { format: 'xlsx' } });
    expect(response.status).toBe(422);
    expect(response.body.detail[0].loc).toEqual(['query', 'format']);
  });

  describe('uploads', () => {
    const upload = (contentType: string, body: string, query: Record<string, string> = { fields: RUN_FIELDS.join(',') }) =>
      app.request('POST', '/v1/runs', { rawBody: body, query, headers: { ...headersOf(TENANT), 'content-type': contentType } });

    async function idsOf(response: { status: number; body: any }): Promise<(string | null)[]> {
      expect(response.status).toBe(202);
      const run = await settledRun(app, TENANT, response.body.run_id);
      expect(run.status).toBe('succeeded');
      return (await ndjsonResults(app, TENANT, response.body.run_id)).map((result) => result.id);
    }

    it('reads a large upload (over 256 KiB: parsed on a body worker) row for row, ids and missing ids in order', async () => {
      const rows = Array.from({ length: 12_000 }, (_, i) => `${i % 7 === 0 ? '' : `row-${i}`},${(30 + (i % 100) / 100).toFixed(4)},${(-98 + (i % 50) / 50).toFixed(4)}`);
      const csv = `id,lat,lon\n${rows.join('\n')}\n`;
      expect(csv.length).toBeGreaterThan(256 * 1024);
      const expected = rows.map((row) => row.split(',')[0] || null);
      expect(await idsOf(await upload('text/csv', csv))).toEqual(expected);
      // The same locations as a JSON body of the same size take the same path.
      const locations = rows.map((row) => {
        const [id, lat, lon] = row.split(',');
        return id ? { lat: Number(lat), lon: Number(lon), id } : { lat: Number(lat), lon: Number(lon) };
      });
      const json = await app.post('/v1/runs', { locations, fields: RUN_FIELDS }, { headers: headersOf(TENANT) });
      expect(await idsOf(json)).toEqual(expected);
    });

    it('takes a CSV with lat/lon and id columns', async () => {
      const csv = 'id,lat,lon\r\na,30.1,-97.9\r\n"b,2",30.2,-97.8\r\n,30.3,-97.7\r\n';
      expect(await idsOf(await upload('text/csv', csv))).toEqual(['a', 'b,2', null]);
    });

    it('takes a GeoJSON FeatureCollection of points, the id from the feature or its properties', async () => {
      const geojson = JSON.stringify({
        type: 'FeatureCollection',
        features: [
          { type: 'Feature', id: 7, geometry: { type: 'Point', coordinates: [-97.9, 30.1] }, properties: {} },
          { type: 'Feature', geometry: { type: 'Point', coordinates: [-97.8, 30.2] }, properties: { id: 'g2' } },
        ],
      });
      expect(await idsOf(await upload('application/geo+json', geojson, { preset: presetName }))).toEqual(['7', 'g2']);
    });

    it('takes NDJSON locations and Point features', async () => {
      const ndjson = '{"lat":30.1,"lon":-97.9,"id":"n1"}\n\n{"type":"Feature","geometry":{"type":"Point","coordinates":[-97.8,30.2]},"properties":{"id":"n2"}}\n';
      expect(await idsOf(await upload('application/x-ndjson', ndjson))).toEqual(['n1', 'n2']);
    });

    it('answers a bad row with 422 at its line, and queues nothing', async () => {
      const before = await app.get('/v1/runs', { headers: headersOf(TENANT) });
      const csv = 'id,lat,lon\na,30.1,-97.9\nb,95,-97.8\n';
      const bad = await upload('text/csv', csv);
      expect(bad.status).toBe(422);
      expect(bad.body.detail[0].loc).toEqual(['body', 'line', 3]);
      const ndjson = await upload('application/x-ndjson', '{"lat":30.1,"lon":-97.9}\n{"lat":"x","lon":-97.9}\nnot json\n');
      expect(ndjson.status).toBe(422);
      expect(ndjson.body.detail.map((issue: any) => issue.loc)).toEqual([
        ['body', 'line', 2],
        ['body', 'line', 3],
      ]);
      const polygon = JSON.stringify({
        type: 'FeatureCollection',
        features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: [[[-97, 30], [-97.1, 30], [-97.1, 30.1], [-97, 30]]] }, properties: {} }],
      });
      const notPoint = await upload('application/geo+json', polygon);
      expect(notPoint.status).toBe(422);
      expect(notPoint.body.detail[0].msg).toContain('point');
      const noFields = await upload('text/csv', 'lat,lon\n30.1,-97.9\n', {});
      expect(noFields.status).toBe(422);
      expect((await app.get('/v1/runs', { headers: headersOf(TENANT) })).body.runs).toHaveLength(before.body.runs.length);
    });

    it('refuses fields in the query string with a JSON body', async () => {
      const response = await app.post('/v1/runs', { locations: points.slice(0, 2), fields: RUN_FIELDS }, { headers: headersOf(TENANT), query: { fields: 'x' } });
      expect(response.status).toBe(422);
      expect(response.body.detail[0].loc).toEqual(['query', 'fields']);
    });
  });

  it('answers unknown fields and presets with D1 and a did-you-mean', async () => {
    const response = await app.post('/v1/runs', { locations: points.slice(0, 2), fields: ['nearest_substation_distanse_m'], preset: 'utilitys' }, { headers: headersOf(TENANT) });
    expect(response.status).toBe(422);
    expect(response.body.detail.map((issue: any) => issue.loc)).toEqual([
      ['body', 'fields', 0],
      ['body', 'preset'],
    ]);
    expect(response.body.detail[0].msg).toContain('nearest_substation_distance_m');
  });

  it('replays an Idempotency-Key without charging again, and refuses the key with another body', async () => {
    const headers = { ...headersOf(TENANT), 'idempotency-key': 'run-key-1' };
    const body = { locations: points.slice(0, 10), fields: RUN_FIELDS };
    const first = await app.post('/v1/runs', body, { headers });
    expect(first.status).toBe(202);
    const charged = (await usage(app, TENANT)).charged;
    const again = await app.post('/v1/runs', body, { headers });
    expect(again.status).toBe(202);
    expect(again.body.run_id).toBe(first.body.run_id);
    expect(again.headers.get('x-credits-charged')).toBe('0');
    expect((await usage(app, TENANT)).charged).toBe(charged);
    const other = await app.post('/v1/runs', { ...body, locations: points.slice(0, 11) }, { headers });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
  });

  it('answers a dry run with the quote, charging and queuing nothing', async () => {
    const before = await usage(app, TENANT);
    const listed = (await app.get('/v1/runs', { headers: headersOf(TENANT) })).body.runs.length;
    const response = await app.post('/v1/runs', { locations: points.slice(0, 40), fields: RUN_FIELDS, dry_run: true }, { headers: headersOf(TENANT) });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ run_id: null, status: 'quote', credits: { charged: 0, per_location: 3, required: 120, balance: before.remaining } });
    expect(response.headers.get('x-credits-charged')).toBe('0');
    expect((await usage(app, TENANT)).charged).toBe(before.charged);
    expect((await app.get('/v1/runs', { headers: headersOf(TENANT) })).body.runs).toHaveLength(listed);
  });

  it('answers 402 and queues nothing when the balance is short', async () => {
    const poor = 'runs-emb-poor';
    await tenantOnPlan(app, app.stack.database.db, poor, 'free');
    const before = await usage(app, poor);
    const response = await app.post('/v1/runs', { locations: locations(before.remaining, 3).concat(locations(1, 4)), fields: ['nearest_substation_distance_m'] }, { headers: headersOf(poor) });
    expect(response.status).toBe(402);
    expect(response.body).toMatchObject({ code: 'insufficient_credits', required: before.remaining + 1, remaining: before.remaining });
    expect((await app.get('/v1/runs', { headers: headersOf(poor) })).body.runs).toEqual([]);
    expect((await usage(app, poor)).charged).toBe(before.charged);
  });

  it('lists the tenant\'s runs newest first, a page at a time', async () => {
    const all = await app.get('/v1/runs', { headers: headersOf(TENANT) });
    expect(all.status).toBe(200);
    const created = all.body.runs.map((run: any) => Date.parse(run.created_at));
    expect(created).toEqual([...created].sort((a: number, b: number) => b - a));
    expect(all.body.runs.map((run: any) => run.run_id)).toContain(runId);
    const first = await app.get('/v1/runs', { headers: headersOf(TENANT), query: { limit: 2 } });
    const second = await app.get('/v1/runs', { headers: headersOf(TENANT), query: { limit: 2, cursor: first.body.next_cursor } });
    expect([...first.body.runs, ...second.body.runs].map((run: any) => run.run_id)).toEqual(all.body.runs.slice(0, 4).map((run: any) => run.run_id));
  });

  it('answers 404 for another tenant\'s run, on every run endpoint', async () => {
    const other = 'runs-emb-other';
    await tenantOnPlan(app, app.stack.database.db, other, 'build');
    const headers = headersOf(other);
    expect((await app.get(`/v1/runs/${runId}`, { headers })).status).toBe(404);
    expect((await app.get(`/v1/runs/${runId}/results`, { headers })).status).toBe(404);
    expect((await app.request('DELETE', `/v1/runs/${runId}`, { headers })).status).toBe(404);
    expect((await app.get('/v1/runs', { headers })).body.runs).toEqual([]);
    expect((await app.get('/v1/runs/not-a-uuid', { headers: headersOf(TENANT) })).status).toBe(404);
    // The owner still sees it, unchanged.
    expect((await app.get(`/v1/runs/${runId}`, { headers: headersOf(TENANT) })).body.status).toBe('succeeded');
  });

  it('lets a viewer read runs but not start or cancel one', async () => {
    const viewer = headersOf(TENANT, 'viewer');
    expect((await app.get(`/v1/runs/${runId}`, { headers: viewer })).status).toBe(200);
    expect((await app.post('/v1/runs', { locations: points.slice(0, 1), fields: RUN_FIELDS }, { headers: viewer })).status).toBe(403);
    expect((await app.request('DELETE', `/v1/runs/${runId}`, { headers: viewer })).status).toBe(403);
  });
});

const presetName = 'utilities';
