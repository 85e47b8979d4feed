import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kml as kmlToGeoJson } from '@tmcw/togeojson';
import { DOMParser } from '@xmldom/xmldom';
import * as shapefile from 'shapefile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MODES, entitleTenant, gatewayContract, loadMarket, startTestStack, type TestStack } from '@landscreen/testing';
import { waitFor } from '../../packages/events/src/test-wait.js';
import { parseCsv, settledRun } from '../support/runs.js';
import { unzip } from '../support/unzip.js';

// D40 exports over HTTP, each file read back by a reader that is not ours: JSON.parse, togeojson
// (KML), the `shapefile` package (the zip's .shp/.dbf), GDAL's ogrinfo (Shapefile, GeoPackage).

const ACME = { authorization: 'Bearer dev:ann@acme.test', 'x-tenant': 'acme' };
const GLOBEX = { authorization: 'Bearer dev:gil@globex.test', 'x-tenant': 'globex' };
const HAS_OGR = existsSync('/usr/bin/ogrinfo');

const square = (x: number, y: number) => ({ type: 'Polygon' as const, coordinates: [[[x, y], [x + 0.004, y], [x + 0.004, y + 0.004], [x, y + 0.004], [x, y]]] });
const PARCELS = Array.from({ length: 12 }, (_, n) => ({
  geometry: square(-97.7 + n * 0.005, 30.3),
  properties: {
    parcel_key: `x${String(n + 1).padStart(2, '0')}`,
    apn: `X-${n + 1}`,
    address: n === 1 ? '2 Ñandú Road, "North"' : `${n + 1} Main Street`,
    acres: 50 + n * 10.123456,
    zoning: n % 3 === 0 ? 'agricultural' : 'industrial',
    nearest_substation_distance_m: 500 + n * 700.123456,
    within_floodplain_polygon: n === 5 ? null : n === 7,
  },
}));

const SPEC = {
  markets: ['export-tx'],
  must: [{ field: 'acres', op: 'gte', value: 55 }, { field: 'within_floodplain_polygon', op: 'eq', value: false, unknown: 'review' }],
  preferred: [
    { field: 'nearest_substation_distance_m', op: 'lte', value: 1500, weight: 3, grade: { zero_at: 8000 } },
    { field: 'zoning', op: 'eq', value: 'industrial', weight: 1 },
  ],
  verdict_cutoffs: { pursue: 70, monitor: 40 },
};

interface Download {
  status: number;
  type: string | null;
  disposition: string | null;
  bytes: Buffer;
  json?: any;
}

/** A request whose answer may be a file: the bytes, checked against the route's declared answers. */
async function download(app: TestStack, method: string, path: string, body?: unknown, headers: Record<string, string> = ACME): Promise<Download> {
  const response = await fetch(new URL(path, app.url), {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const type = response.headers.get('content-type');
  const isJson = type?.startsWith('application/json') ?? false;
  const url = new URL(path, app.url);
  gatewayContract().check({ method, path: url.pathname, status: response.status, contentType: type, text: isJson ? bytes.toString('utf8') : '' });
  return { status: response.status, type, disposition: response.headers.get('content-disposition'), bytes, json: isJson ? JSON.parse(bytes.toString('utf8')) : undefined };
}


const kmlFeatures = (bytes: Buffer) => kmlToGeoJson(new DOMParser().parseFromString(bytes.toString('utf8'), 'text/xml') as never).features;

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'exports-e2e-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** ogrinfo's summary of a file this test wrote to disk. */
async function ogrSummary(name: string, bytes: Buffer, dataset: (path: string) => string): Promise<string> {
  const path = join(work, name);
  await writeFile(path, bytes);
  return execFileSync('ogrinfo', ['-ro', '-al', '-so', dataset(path)], { encoding: 'utf8' });
}

describe.each(DATABASE_MODES)('exports (D40) on %s', (mode) => {
  let app: TestStack;
  let ranked: any;

  beforeAll(async () => {
    app = await startTestStack(mode, { runsWorker: true });
    for (const headers of [ACME, GLOBEX]) expect((await app.get('/v1/me', { headers })).status).toBe(200);
    const db = app.stack.database.db;
    await loadMarket(db, 'export-tx', PARCELS);
    await entitleTenant(db, 'acme', 'export-tx');
    expect((await app.post('/v1/buyboxes', { name: 'Export box', spec: SPEC }, { headers: ACME })).status).toBe(201);
    ranked = (await app.post('/v2/discovery/query', { buy_box: 'Export box', limit: 200 }, { headers: ACME })).body;
    expect(ranked.results.length).toBe(ranked.eligible_total);
  });
  afterAll(() => app?.close());

  const exportRanking = (format: string, body: Record<string, unknown> = { buy_box: 'Export box' }, headers = ACME) =>
    download(app, 'POST', `/v2/discovery/export?format=${format}`, body, headers);

  it('GeoJSON: every eligible parcel in rank order with its polygon, the ranking\'s columns and the rules\' facts', async () => {
    const file = await exportRanking('geojson');
    expect(file.status).toBe(200);
    expect(file.type).toBe('application/geo+json');
    expect(file.disposition).toBe('attachment; filename="ranking-Export-box.geojson"');
    const collection = JSON.parse(file.bytes.toString('utf8'));
    expect(collection.features.map((feature: any) => feature.properties.parcel_key)).toEqual(ranked.results.map((row: any) => row.parcel_key));
    const [first] = collection.features;
    const best = ranked.results[0];
    expect(first.geometry.type).toBe('Polygon');
    expect(Object.keys(first.properties)).toEqual([
      'rank', 'parcel_key', 'apn', 'address', 'score', 'verdict', 'review_required', 'unknowns', 'acres', 'developable_acres', 'lat', 'lon',
      'within_floodplain_polygon', 'nearest_substation_distance_m', 'zoning',
    ]);
    expect(first.properties).toMatchObject({ rank: 1, score: best.score, verdict: best.verdict, nearest_substation_distance_m: best.facts.nearest_substation_distance_m, acres: best.acres });
    // Rounded per unit: a tenth of a metre.
    for (const feature of collection.features) expect(Number.isInteger(feature.properties.nearest_substation_distance_m * 10 + 1e-9 - 1e-9)).toBe(true);
    const review = collection.features.find((feature: any) => feature.properties.parcel_key === 'x06');
    expect(review.properties).toMatchObject({ review_required: true, unknowns: 'within_floodplain_polygon', within_floodplain_polygon: null });
  });

  it('GET by URL for a saved box answers the same file', async () => {
    const viaPost = await exportRanking('geojson');
    const viaGet = await download(app, 'GET', `/v2/discovery/export?buy_box=${encodeURIComponent('Export box')}&format=geojson`);
    expect(viaGet.status).toBe(200);
    expect(JSON.parse(viaGet.bytes.toString())).toEqual(JSON.parse(viaPost.bytes.toString()));
  });

  it('`fields` chooses the fact columns', async () => {
    const file = await exportRanking('geojson', { buy_box: 'Export box', fields: ['zoning', 'apn', 'wetland_acres'] });
    const { features } = JSON.parse(file.bytes.toString('utf8'));
    expect(Object.keys(features[0].properties).slice(12)).toEqual(['zoning', 'wetland_acres']);
    expect(features[0].properties.wetland_acres).toBeNull();
  });

  it('CSV: a row per parcel, quoted where needed, the polygon as WKT', async () => {
    const file = await exportRanking('csv');
    expect(file.type).toBe('text/csv; charset=utf-8');
    const [header, ...rows] = parseCsv(file.bytes.toString('utf8')).filter((row) => row.length > 1);
    expect(header!.slice(0, 3)).toEqual(['rank', 'parcel_key', 'apn']);
    expect(header!.at(-1)).toBe('geometry_wkt');
    expect(rows.map((row) => row[1])).toEqual(ranked.results.map((row: any) => row.parcel_key));
    expect(rows[0]!.at(-1)).toMatch(/^POLYGON \(\(|^POLYGON\(\(/);
    expect(rows.find((row) => row[1] === 'x02')![3]).toBe('2 Ñandú Road, "North"');
    expect(rows.find((row) => row[1] === 'x01')).toBeUndefined(); // fails the must rule (50 acres)
  });

  it('KML: togeojson reads a Placemark per parcel, named by its parcel key', async () => {
    const file = await exportRanking('kml');
    expect(file.type).toBe('application/vnd.google-earth.kml+xml');
    const features = kmlFeatures(file.bytes);
    expect(features).toHaveLength(ranked.eligible_total);
    expect(features.map((feature) => feature.properties!.parcel_key)).toEqual(ranked.results.map((row: any) => row.parcel_key));
    expect(features[0]!.geometry!.type).toBe('Polygon');
    expect(Number(features[0]!.properties!.score)).toBe(ranked.results[0].score);
    expect(features[0]!.properties!.name).toBe(ranked.results[0].parcel_key);
  });

  it('Shapefile: a zip the `shapefile` package reads, every parcel with its attributes', async () => {
    const file = await exportRanking('shapefile');
    expect(file.type).toBe('application/zip');
    expect(file.disposition).toBe('attachment; filename="ranking-Export-box.shp.zip"');
    const files = await unzip(file.bytes);
    const layer = await shapefile.read(files.get('ranking.shp')!, files.get('ranking.dbf')!, { encoding: 'utf-8' });
    expect(layer.features.map((feature) => feature.properties!.parcel_key)).toEqual(ranked.results.map((row: any) => row.parcel_key));
    expect(layer.features[0]!.properties).toMatchObject({ rank: 1, score: ranked.results[0].score, verdict: ranked.results[0].verdict });
    expect(files.get('ranking.prj')!.toString()).toContain('WGS_1984');
    if (HAS_OGR) {
      const summary = await ogrSummary('ranking.shp.zip', file.bytes, (path) => `/vsizip/${path}/ranking.shp`);
      expect(summary).toMatch(/Geometry: Polygon/);
      expect(summary).toContain(`Feature Count: ${ranked.eligible_total}`);
    }
  });

  it.skipIf(!HAS_OGR)('GeoPackage: GDAL reads the layer, its columns and every parcel', async () => {
    const file = await exportRanking('gpkg');
    expect(file.type).toBe('application/geopackage+sqlite3');
    expect(file.bytes.subarray(0, 15).toString()).toBe('SQLite format 3');
    const summary = await ogrSummary('ranking.gpkg', file.bytes, (path) => path);
    expect(summary).toMatch(/Layer name: ranking/);
    expect(summary).toContain(`Feature Count: ${ranked.eligible_total}`);
    expect(summary).toMatch(/nearest_substation_distance_m: Real/);
    expect(summary).toMatch(/review_required: Integer\(Boolean\)/);
  });

  it('refuses a bad format (422 on its loc), an unknown fact (422), a missing box (404) and a market not entitled (403)', async () => {
    const badFormat = await exportRanking('xlsx');
    expect(badFormat.status).toBe(422);
    expect(badFormat.json.detail[0].loc).toEqual(['query', 'format']);
    const unknown = await exportRanking('csv', { buy_box: 'Export box', fields: ['acrse'] });
    expect(unknown.status).toBe(422);
    expect(unknown.json.detail[0]).toMatchObject({ loc: ['body', 'fields', 0], ctx: { did_you_mean: 'acres' } });
    expect((await exportRanking('csv', { buy_box: 'Nope' })).status).toBe(404);
    await app.post('/v1/buyboxes', { name: 'Theirs', spec: SPEC }, { headers: GLOBEX });
    const other = await exportRanking('kml', { buy_box: 'Theirs' }, GLOBEX);
    expect(other.status).toBe(403);
    expect(other.json.code).toBe('not_entitled');
  });

  it('exports the board and a delivery; without `format` both answer as before', async () => {
    for (const key of ranked.results.slice(0, 2).map((row: any) => row.parcel_key)) {
      expect((await app.post('/v2/pipeline', { parcel_key: key, buy_box: 'Export box', query_hash: ranked.query_hash }, { headers: ACME })).status).toBe(202);
    }
    const board = await app.get('/v1/pipeline', { headers: ACME });
    expect(board.body.total).toBe(2);
    const csv = await download(app, 'GET', '/v1/pipeline?format=csv');
    expect(csv.disposition).toBe('attachment; filename="pipeline.csv"');
    const [header, ...rows] = parseCsv(csv.bytes.toString('utf8')).filter((row) => row.length > 1);
    expect(header!.slice(0, 3)).toEqual(['stage', 'position', 'parcel_key']);
    expect(rows.map((row) => row[2])).toEqual(board.body.items.map((item: any) => item.property.parcel_key));
    const kml = kmlFeatures((await download(app, 'GET', '/v1/pipeline?format=kml')).bytes);
    expect(kml.map((feature) => feature.geometry!.type)).toEqual(['Point', 'Point']);
    expect((await download(app, 'GET', '/v1/pipeline?format=geojson', undefined, GLOBEX)).bytes.toString()).toBe('{"type":"FeatureCollection","features":[]}\n');

    const created = await app.post('/v1/lead-requests', { buy_box: 'Export box', count: 3 }, { headers: ACME });
    expect(created.status).toBe(201);
    let deliveryId: string | null = null;
    await waitFor(async () => {
      const list = await app.get('/v1/lead-requests', { headers: ACME });
      deliveryId = list.body.lead_requests.find((request: any) => request.id === created.body.id)?.delivery_id ?? null;
      return deliveryId !== null;
    }, 'the lead request to be delivered');
    const delivery = await app.get(`/v1/deliveries/${deliveryId}`, { headers: ACME });
    expect(delivery.status).toBe(200);
    expect(delivery.body.leads).toHaveLength(3);
    const file = await download(app, 'GET', `/v1/deliveries/${deliveryId}?format=geojson`);
    expect(file.disposition).toBe(`attachment; filename="delivery-${deliveryId}.geojson"`);
    const { features } = JSON.parse(file.bytes.toString('utf8'));
    expect(features.map((feature: any) => [feature.properties.rank, feature.properties.parcel_key])).toEqual(delivery.body.leads.map((lead: any) => [lead.rank, lead.parcel_key]));
    expect((await download(app, 'GET', `/v1/deliveries/${deliveryId}?format=csv`, undefined, GLOBEX)).status).toBe(404);
    if (HAS_OGR) {
      const gpkg = await download(app, 'GET', `/v1/deliveries/${deliveryId}?format=gpkg`);
      expect(await ogrSummary('delivery.gpkg', gpkg.bytes, (path) => path)).toMatch(/Feature Count: 3/);
    }
  });

  it('exports a run\'s results as KML, a Shapefile and a GeoPackage, a Point per location in input order', async () => {
    const points = [{ lat: 30.3, lon: -97.7, id: 'a' }, { lat: 30.31, lon: -97.71, id: 'b' }, { lat: 30.32, lon: -97.72 }];
    const created = await app.post('/v1/runs', { locations: points, fields: ['nearest_substation_distance_m', 'elevation'] }, { headers: ACME });
    expect(created.status).toBe(202);
    const run = await settledRun(app, 'acme', created.body.run_id);
    expect(run.status).toBe('succeeded');
    const kml = kmlFeatures((await download(app, 'GET', `/v1/runs/${run.run_id}/results?format=kml`)).bytes);
    expect(kml.map((feature) => feature.geometry)).toEqual(points.map((point) => ({ type: 'Point', coordinates: [point.lon, point.lat] })));
    expect(kml[0]!.properties).toMatchObject({ name: 'a', id: 'a' });
    const zip = await download(app, 'GET', `/v1/runs/${run.run_id}/results?format=shapefile`);
    expect(zip.disposition).toBe(`attachment; filename="run-${run.run_id}.shp.zip"`);
    const files = await unzip(zip.bytes);
    const layer = await shapefile.read(files.get('run_results_points.shp')!, files.get('run_results_points.dbf')!, { encoding: 'utf-8' });
    expect(layer.features.map((feature) => feature.properties!.id)).toEqual(['a', 'b', null]);
    expect(layer.features[0]!.properties!.null_reaso).toContain('no_coverage'); // dBase names have 10 characters
    if (HAS_OGR) {
      const gpkg = await download(app, 'GET', `/v1/runs/${run.run_id}/results?format=gpkg`);
      const summary = await ogrSummary('run.gpkg', gpkg.bytes, (path) => path);
      expect(summary).toMatch(/Feature Count: 3/);
      expect(summary).toMatch(/Geometry: Point/);
    }
    // The formats the catalog writes answer as before.
    expect((await download(app, 'GET', `/v1/runs/${run.run_id}/results?format=ndjson`)).type).toBe('application/x-ndjson');
  });
});

describe('a large ranking export streams (postgres)', () => {
  let app: TestStack;
  const SIZE = 20_000;

  beforeAll(async () => {
    app = await startTestStack('postgres');
    expect((await app.get('/v1/me', { headers: ACME })).status).toBe(200);
    const db = app.stack.database.db;
    const parcels = Array.from({ length: SIZE }, (_, n) => ({
      geometry: square(-98 + (n % 200) * 0.005, 30 + Math.floor(n / 200) * 0.005),
      properties: { parcel_key: `L${n}`, acres: 40 + (n % 50), zoning: 'industrial', nearest_substation_distance_m: (n * 37) % 9000 },
    }));
    await loadMarket(db, 'large-tx', parcels);
    await entitleTenant(db, 'acme', 'large-tx');
    const spec = { ...SPEC, markets: ['large-tx'], must: [] };
    expect((await app.post('/v1/buyboxes', { name: 'Large', spec }, { headers: ACME })).status).toBe(201);
  });
  afterAll(() => app?.close());

  it('sends the first features before it has read the whole ranking, and every parcel once by the end', async () => {
    const response = await fetch(new URL('/v2/discovery/export?format=geojson', app.url), {
      method: 'POST',
      headers: { ...ACME, 'content-type': 'application/json' },
      body: JSON.stringify({ buy_box: 'Large' }),
    });
    expect(response.status).toBe(200);
    // Streamed: no length known in advance.
    expect(response.headers.get('content-length')).toBeNull();
    const reader = response.body!.getReader();
    const first = await reader.read();
    const firstBytes = first.value!.length;
    let total = firstBytes;
    const chunks: Buffer[] = [Buffer.from(first.value!)];
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      total += next.value.length;
      chunks.push(Buffer.from(next.value));
    }
    // The first chunk is a page at most (200 parcels), not the whole body.
    expect(firstBytes).toBeLessThan(total / 20);
    const collection = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    expect(collection.features).toHaveLength(SIZE);
    expect(new Set(collection.features.map((feature: any) => feature.properties.parcel_key)).size).toBe(SIZE);
    const scores = collection.features.map((feature: any) => feature.properties.score);
    expect(scores.every((score: number, at: number) => at === 0 || score <= scores[at - 1])).toBe(true);
  });
});
