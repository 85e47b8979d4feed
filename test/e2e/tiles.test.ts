// D40: vector tiles over HTTP. A parcel tile decodes (@mapbox/vector-tile + pbf, as a map client
// reads it) to the eligible parcels meeting it, each with its verdict and score where the parcel
// lies; the ETag names the vintage, the spec and the tile (304 while it holds, a new tile once the
// buy box changes); tenancy, entitlement and the tile address are refused as D2/D1 say. A layer
// tile shows the source's current version with its declared properties. On PGlite and PostgreSQL.

import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFetchResponse, DATABASE_MODES, entitleTenant, loadMarket, startTestStack, type TestStack } from '@landscreen/testing';
import { importLayer } from '../../services/catalog/src/layers/import-layer.js';
import { catalogDb } from '../../services/catalog/src/schema.js';
import { layerFiles, pointCollection, type LayerFiles } from '../../services/catalog/src/testing/layer-files.js';
import { expectStatus, session } from '../support/diligence.js';

const ACME = session('ann@acme-tiles.test', 'acme-tiles', 'analyst');
const ACME_VIEWER = session('vic@acme-tiles.test', 'acme-tiles', 'viewer');
const ACME_WORKER = session('wes@acme-tiles.test', 'acme-tiles', 'worker');
const GLOBEX = session('gil@globex-tiles.test', 'globex-tiles', 'analyst');

const MARKET = 'tiles-tx';
const Z = 14;
/** The z14 tile holding (-97.5, 30.5), and its corner in degrees. */
const X = Math.floor(((-97.5 + 180) / 360) * 2 ** Z);
const Y = Math.floor(((1 - Math.asinh(Math.tan((30.5 * Math.PI) / 180)) / Math.PI) / 2) * 2 ** Z);
const WEST = (X / 2 ** Z) * 360 - 180;
const NORTH = (Math.atan(Math.sinh(Math.PI - (2 * Math.PI * Y) / 2 ** Z)) * 180) / Math.PI;

/** A square parcel of 0.002° whose south-west corner is `east` and `south` degrees inside the tile's north-west corner. */
const square = (east: number, south: number) => {
  const lon = WEST + east;
  const lat = NORTH - south;
  return { type: 'Polygon' as const, coordinates: [[[lon, lat], [lon + 0.002, lat], [lon + 0.002, lat + 0.002], [lon, lat + 0.002], [lon, lat]]] };
};
const centre = (geometry: ReturnType<typeof square>) => [geometry.coordinates[0]![0]![0]! + 0.001, geometry.coordinates[0]![0]![1]! + 0.001];

const PARCELS = [
  { geometry: square(0.003, 0.006), properties: { parcel_key: 't-pursue', acres: 100, nearest_substation_distance_m: 500, slope_degrees: 2 } },
  { geometry: square(0.009, 0.006), properties: { parcel_key: 't-monitor', acres: 100, nearest_substation_distance_m: 5000, slope_degrees: 2 } },
  { geometry: square(0.015, 0.012), properties: { parcel_key: 't-hold', acres: 100, nearest_substation_distance_m: 5000, slope_degrees: 9 } },
  { geometry: square(0.003, 0.015), properties: { parcel_key: 't-small', acres: 10, nearest_substation_distance_m: 500, slope_degrees: 2 } },
  // Two tiles east: in another tile.
  { geometry: square(0.05, 0.006), properties: { parcel_key: 't-elsewhere', acres: 100, nearest_substation_distance_m: 500, slope_degrees: 2 } },
];

const SPEC = {
  markets: [MARKET],
  must: [{ field: 'acres', op: 'gte', value: 50 }],
  preferred: [
    { field: 'nearest_substation_distance_m', op: 'lte', value: 3000, weight: 2 },
    { field: 'slope_degrees', op: 'lte', value: 5, weight: 1 },
  ],
  verdict_cutoffs: { pursue: 60, monitor: 30 },
};

interface Tile {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  body: any;
}

async function getTile(app: TestStack, path: string, headers: Record<string, string>): Promise<Tile> {
  const response = await fetch(new URL(path, app.url), { headers });
  await checkFetchResponse('GET', response.url, response);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const json = response.headers.get('content-type')?.includes('json');
  return { status: response.status, headers: response.headers, bytes, body: json ? JSON.parse(Buffer.from(bytes).toString('utf8')) : undefined };
}

/** Every feature of a layer of the tile, with its geometry in degrees. */
function decode(bytes: Uint8Array, layerName: string, z = Z, x = X, y = Y) {
  const layer = new VectorTile(new PbfReader(bytes)).layers[layerName];
  if (!layer) return [];
  return Array.from({ length: layer.length }, (_, i) => {
    const feature = layer.feature(i);
    return { properties: feature.properties, type: feature.type, geojson: feature.toGeoJSON(x, y, z) };
  });
}

const parcelTilePath = (z = Z, x = X, y = Y, market = MARKET) => `/v1/tiles/parcels/${market}/${z}/${x}/${y}.mvt`;

describe.each(DATABASE_MODES)('vector tiles on %s', (mode) => {
  let app: TestStack;
  let files: LayerFiles;

  beforeAll(async () => {
    app = await startTestStack(mode);
    files = await layerFiles();
    for (const headers of [ACME, ACME_VIEWER, ACME_WORKER, GLOBEX]) expectStatus(await app.get('/v1/me', { headers }), 200);
    const db = app.stack.database.db;
    await loadMarket(db, MARKET, PARCELS);
    await loadMarket(db, 'tiles-other', [PARCELS[0]!]);
    await entitleTenant(db, 'acme-tiles', MARKET);
    await entitleTenant(db, 'globex-tiles', MARKET);
    await entitleTenant(db, 'globex-tiles', 'tiles-other');
    await importLayer(catalogDb(db), {
      source: 'hifld_substations',
      file: await files.write('subs.geojson', pointCollection([{ lon: WEST + 0.004, lat: NORTH - 0.004, properties: { name: 'Pedernales', max_voltage_kv: 138, status: 'IN SERVICE' } }])),
    });
    expectStatus(await app.post('/v1/buyboxes', { name: 'dc', spec: SPEC }, { headers: ACME }), 201);
    expectStatus(await app.post('/v1/buyboxes', { name: 'globex box', spec: SPEC }, { headers: GLOBEX }), 201);
    expectStatus(await app.post('/v1/buyboxes', { name: 'other market', spec: { ...SPEC, markets: ['tiles-other'] } }, { headers: GLOBEX }), 201);
  });
  afterAll(async () => {
    await app?.close();
    await files?.remove();
  });

  it('decodes to the eligible parcels meeting the tile, each with its verdict and score where it lies', async () => {
    const tile = await getTile(app, `${parcelTilePath()}?buy_box=dc`, ACME);
    expect(tile.status).toBe(200);
    expect(tile.headers.get('content-type')).toBe('application/vnd.mapbox-vector-tile');
    const features = decode(tile.bytes, 'parcels');
    const byKey = Object.fromEntries(features.map((feature) => [feature.properties.parcel_key, feature]));
    expect(Object.keys(byKey).sort()).toEqual(['t-hold', 't-monitor', 't-pursue']);
    expect(byKey['t-pursue']!.properties).toMatchObject({ verdict: 'PURSUE', score: 100 });
    expect(byKey['t-monitor']!.properties).toMatchObject({ verdict: 'MONITOR', score: 33.3333 });
    expect(byKey['t-hold']!.properties).toMatchObject({ verdict: 'HOLD', score: 0 });
    // The verdicts and scores are the ranking's: the same as discovery answers.
    const ranked = expectStatus(await app.post('/v2/discovery/query', { buy_box: 'dc' }, { headers: ACME }), 200).body.results;
    for (const result of ranked.filter((row: any) => row.parcel_key in byKey)) {
      expect(byKey[result.parcel_key]!.properties).toMatchObject({ verdict: result.verdict, score: result.score });
    }
    for (const parcel of PARCELS.filter((p) => p.properties.parcel_key in byKey)) {
      const feature = byKey[parcel.properties.parcel_key]!;
      expect(feature.type).toBe(3);
      const ring = (feature.geojson.geometry as { coordinates: number[][][] }).coordinates[0]!;
      const [lon, lat] = centre(parcel.geometry);
      const mean = (axis: number) => ring.slice(0, -1).reduce((sum, point) => sum + point[axis]!, 0) / (ring.length - 1);
      // A tile unit at z14 is about 0.6 m: the polygon comes back where it was, to a few units.
      expect(Math.abs(mean(0) - lon!)).toBeLessThan(2e-5);
      expect(Math.abs(mean(1) - lat!)).toBeLessThan(2e-5);
    }
  });

  it('revalidates by a strong ETag: 304 while the tile holds, a new tile once the buy box changes', async () => {
    const path = `${parcelTilePath()}?buy_box=dc`;
    const first = await getTile(app, path, ACME);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const again = await getTile(app, path, { ...ACME, 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.bytes.byteLength).toBe(0);
    // The same tile again without the header: the same bytes (served from the gateway's cache).
    expect(Buffer.from((await getTile(app, path, ACME)).bytes).equals(Buffer.from(first.bytes))).toBe(true);

    const stricter = { ...SPEC, verdict_cutoffs: { pursue: 101, monitor: 30 } };
    expectStatus(await app.request('PUT', '/v1/buyboxes/dc', { body: { spec: stricter }, headers: ACME }), 200);
    try {
      const changed = await getTile(app, path, { ...ACME, 'if-none-match': etag });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(etag);
      const verdicts = Object.fromEntries(decode(changed.bytes, 'parcels').map((f) => [f.properties.parcel_key, f.properties.verdict]));
      expect(verdicts).toEqual({ 't-pursue': 'MONITOR', 't-monitor': 'MONITOR', 't-hold': 'HOLD' });
    } finally {
      expectStatus(await app.request('PUT', '/v1/buyboxes/dc', { body: { spec: SPEC }, headers: ACME }), 200);
    }
  });

  it('is empty where the market has no parcel, and holds a parcel in the tile next door', async () => {
    const empty = await getTile(app, `${parcelTilePath(Z, X, Y + 3)}?buy_box=dc`, ACME);
    expect(empty.status).toBe(200);
    expect(decode(empty.bytes, 'parcels', Z, X, Y + 3)).toEqual([]);
    const east = await getTile(app, `${parcelTilePath(Z, X + 2, Y)}?buy_box=dc`, ACME);
    expect(decode(east.bytes, 'parcels', Z, X + 2, Y).map((f) => f.properties.parcel_key)).toEqual(['t-elsewhere']);
  });

  it('lets a viewer read tiles, and refuses a worker (D8)', async () => {
    expect((await getTile(app, `${parcelTilePath()}?buy_box=dc`, ACME_VIEWER)).status).toBe(200);
    const worker = await getTile(app, `${parcelTilePath()}?buy_box=dc`, ACME_WORKER);
    expect([worker.status, worker.body.code]).toEqual([403, 'forbidden']);
  });

  it('answers 404 for another tenant\'s buy box, 403 not_entitled for a market the tenant may not use, 404 for an unknown market (with a did-you-mean among its own)', async () => {
    const foreign = await getTile(app, `${parcelTilePath()}?buy_box=${encodeURIComponent('globex box')}`, ACME);
    expect([foreign.status, foreign.body.code]).toEqual([404, 'buy_box_not_found']);
    const notEntitled = await getTile(app, `${parcelTilePath(Z, X, Y, 'tiles-other')}?buy_box=dc`, ACME);
    expect([notEntitled.status, notEntitled.body.code]).toEqual([403, 'not_entitled']);
    const unknown = await getTile(app, `${parcelTilePath(Z, X, Y, 'nowhere-tx')}?buy_box=dc`, ACME);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'market_not_found']);
    expect(unknown.body.detail).toBe('No market "nowhere-tx".');
    // A typo is answered with the entitled market it is close to, never a market of another tenant's.
    const typo = await getTile(app, `${parcelTilePath(Z, X, Y, 'tiles-t')}?buy_box=dc`, ACME);
    expect([typo.status, typo.body.code, typo.body.detail]).toEqual([404, 'market_not_found', 'No market "tiles-t"; did you mean "tiles-tx"?']);
    const nearForeign = await getTile(app, `${parcelTilePath(Z, X, Y, 'tiles-othe')}?buy_box=dc`, ACME);
    expect(nearForeign.status).toBe(404);
    expect(nearForeign.body.detail).not.toContain('tiles-other');
    const otherMarket = await getTile(app, `${parcelTilePath()}?buy_box=${encodeURIComponent('other market')}`, GLOBEX);
    expect(otherMarket.status).toBe(422);
    expect(otherMarket.body.detail[0].loc).toEqual(['query', 'buy_box']);
  });

  it('is documented in the OpenAPI document: both tile routes, their vector-tile answer and their refusals', async () => {
    const document = expectStatus(await app.get('/openapi.json'), 200).body;
    const parcels = document.paths['/v1/tiles/parcels/{market}/{z}/{x}/{y}.mvt']?.get;
    const layers = document.paths['/v1/tiles/layers/{source}/{z}/{x}/{y}.mvt']?.get;
    for (const operation of [parcels, layers]) {
      expect(Object.keys(operation.responses['200'].content)).toEqual(['application/vnd.mapbox-vector-tile']);
      expect(operation.responses).toHaveProperty('304');
      expect(operation.responses).toHaveProperty('404');
      expect(operation.responses).toHaveProperty('422');
    }
    expect(parcels.responses).toHaveProperty('403');
    expect(parcels.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['market', 'z', 'x', 'y', 'buy_box']));
  });

  it('answers 422 for a zoom outside 0-22, a column or row outside the zoom, or no buy box (D1, D40)', async () => {
    const z23 = await getTile(app, `/v1/tiles/parcels/${MARKET}/23/0/0.mvt?buy_box=dc`, ACME);
    expect(z23.status).toBe(422);
    expect(z23.body.detail).toEqual([expect.objectContaining({ loc: ['path', 'z'], type: 'less_than_equal' })]);
    const negative = await getTile(app, `/v1/tiles/parcels/${MARKET}/-1/0/0.mvt?buy_box=dc`, ACME);
    expect(negative.body.detail[0]).toMatchObject({ loc: ['path', 'z'], type: 'greater_than_equal' });
    const outside = await getTile(app, `/v1/tiles/parcels/${MARKET}/2/4/1.mvt?buy_box=dc`, ACME);
    expect(outside.status).toBe(422);
    expect(outside.body.detail).toEqual([expect.objectContaining({ loc: ['path', 'x'], type: 'less_than_equal', ctx: { le: 3 } })]);
    const words = await getTile(app, `/v1/tiles/parcels/${MARKET}/a/0/0.mvt?buy_box=dc`, ACME);
    expect(words.body.detail[0]).toMatchObject({ loc: ['path', 'z'], type: 'int_parsing' });
    const noBox = await getTile(app, parcelTilePath(), ACME);
    expect(noBox.body.detail[0]).toMatchObject({ loc: ['query', 'buy_box'], type: 'missing' });
    // z0 and z22 are tiles: at z0 the whole world is one tile, in which a 200 m parcel is less than a unit and is left out.
    const z0 = await getTile(app, `/v1/tiles/parcels/${MARKET}/0/0/0.mvt?buy_box=dc`, ACME);
    expect(z0.status).toBe(200);
    expect(decode(z0.bytes, 'parcels', 0, 0, 0)).toEqual([]);
    const z22 = await getTile(app, `/v1/tiles/parcels/${MARKET}/22/${X * 256 + 40}/${Y * 256 + 80}.mvt?buy_box=dc`, ACME);
    expect(decode(z22.bytes, 'parcels', 22, X * 256 + 40, Y * 256 + 80).map((f) => f.properties.parcel_key)).toEqual(['t-pursue']);
  });

  it('draws a layer source\'s current version with its declared properties, cached for good when the URL names the version', async () => {
    const sources = expectStatus(await app.get('/v1/meta/sources'), 200).body.sources;
    const version = sources.find((source: any) => source.id === 'hifld_substations').current_version.id;
    const path = `/v1/tiles/layers/hifld_substations/${Z}/${X}/${Y}.mvt`;
    const tile = await getTile(app, path, ACME_VIEWER);
    expect(tile.status).toBe(200);
    expect(tile.headers.get('cache-control')).toBe('private, no-cache');
    const [substation, ...rest] = decode(tile.bytes, 'hifld_substations');
    expect(rest).toEqual([]);
    expect(substation!.type).toBe(1);
    expect(substation!.properties).toEqual({ name: 'Pedernales', max_voltage_kv: 138, status: 'IN SERVICE' });
    const [lon, lat] = (substation!.geojson.geometry as { coordinates: number[] }).coordinates;
    expect(Math.abs(lon! - (WEST + 0.004))).toBeLessThan(2e-5);
    expect(Math.abs(lat! - (NORTH - 0.004))).toBeLessThan(2e-5);

    const pinned = await getTile(app, `${path}?version=${version}`, ACME_VIEWER);
    expect(pinned.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(pinned.headers.get('etag')).toBe(tile.headers.get('etag'));
    const stale = await getTile(app, `${path}?version=00000000-0000-4000-8000-000000000000`, ACME_VIEWER);
    expect([stale.status, stale.body.code, stale.body.current_version]).toEqual([409, 'stale_layer_version', version]);
  });

  it('refuses an unknown source (404), a grid source (422) and a source with nothing loaded (409)', async () => {
    const unknown = await getTile(app, `/v1/tiles/layers/no_such_source/${Z}/${X}/${Y}.mvt`, ACME);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'source_not_found']);
    const grid = await getTile(app, `/v1/tiles/layers/usgs_3dep/${Z}/${X}/${Y}.mvt`, ACME);
    expect(grid.status).toBe(422);
    expect(grid.body.detail[0].loc).toEqual(['path', 'source']);
    const empty = await getTile(app, `/v1/tiles/layers/usfws_nwi/${Z}/${X}/${Y}.mvt`, ACME);
    expect([empty.status, empty.body.code]).toEqual([409, 'layer_not_loaded']);
  });

  it('answers any parcel\'s evaluation against the buy box, the ineligible too (what a map click shows)', async () => {
    const pursue = expectStatus(await app.get('/v2/parcels/t-pursue/evaluation', { query: { buy_box: 'dc' }, headers: ACME_VIEWER }), 200).body;
    expect(pursue).toMatchObject({ market: MARKET, buy_box: 'dc', eligible: true, failed: [], result: { parcel_key: 't-pursue', verdict: 'PURSUE', score: 100 } });
    const small = expectStatus(await app.get('/v2/parcels/t-small/evaluation', { query: { buy_box: 'dc' }, headers: ACME }), 200).body;
    expect(small.eligible).toBe(false);
    expect(small.failed).toEqual([{ field: 'acres', value: 10, status: 'fail' }]);
    const missing = await app.get('/v2/parcels/nothing-here/evaluation', { query: { buy_box: 'dc' }, headers: ACME });
    expect([missing.status, missing.body.code]).toEqual([404, 'parcel_not_found']);
    const foreign = await app.get('/v2/parcels/t-pursue/evaluation', { query: { buy_box: 'globex box' }, headers: ACME });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'buy_box_not_found']);
  });

  it('keeps the tiles of one tenant\'s buy box from another tenant with a box of the same name', async () => {
    // globex names a box "dc" too, with everything PURSUE: acme's tile must not be served to it, nor the reverse.
    expectStatus(await app.post('/v1/buyboxes', { name: 'dc', spec: { ...SPEC, verdict_cutoffs: { pursue: 0, monitor: 0 } } }, { headers: GLOBEX }), 201);
    const acme = decode((await getTile(app, `${parcelTilePath()}?buy_box=dc`, ACME)).bytes, 'parcels');
    const globex = decode((await getTile(app, `${parcelTilePath()}?buy_box=dc`, GLOBEX)).bytes, 'parcels');
    expect(acme.map((f) => f.properties.verdict).sort()).toEqual(['HOLD', 'MONITOR', 'PURSUE']);
    expect(globex.map((f) => f.properties.verdict)).toEqual(['PURSUE', 'PURSUE', 'PURSUE']);
  });
});
