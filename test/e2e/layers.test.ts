// `landscreen import layer` and `landscreen layers` run as processes of their own, and the
// engine of the running server answering from what they loaded.

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, createRouterTransport, type Client } from '@connectrpc/connect';
import { writeArrayBuffer } from 'geotiff';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLandscreen as run, startLandscreenServer } from '../support/cli-process.js';
import { catalogv1 } from '@landscreen/proto';
import { httpClient, startTestStack, type TestDatabase, type TestStack } from '@landscreen/testing';
import { writeShapefile } from '../../packages/layer-io/src/testing/shapefile-writer.js';


function pointCollection(points: { lon: number; lat: number; properties?: Record<string, unknown> }[]): string {
  const features = points.map(({ lon, lat, properties = {} }) =>
    JSON.stringify({ type: 'Feature', geometry: { type: 'Point', coordinates: [lon, lat] }, properties }),
  );
  return `{"type":"FeatureCollection","features":[\n${features.join(',\n')}\n]}\n`;
}

const VERSION_LINE = /source (\S+): layer version ([0-9a-f-]{36}) with ([\d,]+) (features|cells) is now current/;

// ArcGIS's .prj for Web Mercator (EPSG:3857).
const WEB_MERCATOR_PRJ =
  'PROJCS["WGS_1984_Web_Mercator_Auxiliary_Sphere",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],' +
  'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Mercator_Auxiliary_Sphere"],PARAMETER["False_Easting",0.0],' +
  'PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",0.0],PARAMETER["Standard_Parallel_1",0.0],' +
  'PARAMETER["Auxiliary_Sphere_Type",0.0],UNIT["Meter",1.0]]';

function webMercator(lon: number, lat: number): [number, number] {
  const r = 6378137;
  const rad = Math.PI / 180;
  return [r * lon * rad, r * Math.log(Math.tan(Math.PI / 4 + (lat * rad) / 2))];
}

describe('layers imported by another process while the server runs on PostgreSQL', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-layers-'));
  let stack: TestStack;
  let env: Record<string, string>;
  let engine: Client<typeof catalogv1.CatalogService>;
  const evaluate = (fields: string[], lat: number, lon: number) =>
    engine.evaluatePoints({ locations: [{ lat, lon, id: 'p' }], fields }).then(({ results }) => results[0].answers);

  beforeAll(async () => {
    stack = await startTestStack('postgres');
    env = { DATABASE_URL: (stack.stack.database as TestDatabase).url, DATA_DIR: dir, LOG_LEVEL: 'silent' };
    // The server's own catalog service (and so its own layer cache), over Connect in memory.
    const catalog = stack.stack.modules.find((module) => module.name === 'catalog')!;
    engine = createClient(catalogv1.CatalogService, createRouterTransport(catalog.routes));
  });
  afterAll(async () => {
    await stack?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a GeoJSON substations layer from the next request after the import committed', async () => {
    // Warm: the server has answered before the layer existed.
    expect((await evaluate(['nearest_substation_distance_m'], 35.01, -97))[0].nullReason).toBe('no_coverage');
    const file = path.join(dir, 'substations.geojson');
    writeFileSync(file, pointCollection([{ lon: -97, lat: 35, properties: { NAME: 'Alpha', KV: 345 } }]));
    const imported = await run(['import', 'layer', '--source', 'hifld_substations', '--file', file, '--map', 'NAME=name,KV=max_voltage_kv'], env);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    const [, source, versionId, count] = VERSION_LINE.exec(imported.stdout)!;
    expect([source, count]).toEqual(['hifld_substations', '1']);
    expect(imported.stdout).toMatch(/importing .*\] 100% 1 features/);

    const [distance, voltage] = await evaluate(['nearest_substation_distance_m', 'nearest_substation_max_voltage_kv'], 35.01, -97);
    expect(Math.abs((distance.value.value as number) - 1112) / 1112).toBeLessThan(0.005);
    expect(distance.provenance?.layers.map((layer) => layer.layerVersionId)).toEqual([versionId]);
    expect(voltage.value.value).toBe(345);

    const sources = await stack.get('/v1/meta/sources');
    expect(sources.status).toBe(200);
    const substations = sources.body.sources.find((entry: { id: string }) => entry.id === 'hifld_substations');
    expect(substations).toMatchObject({
      geometry: 'points',
      properties: [
        { name: 'name', type: 'string' },
        { name: 'max_voltage_kv', type: 'number' },
        { name: 'status', type: 'string' },
      ],
      current_version: { id: versionId, name: 'substations.geojson', format: 'geojson', feature_count: 1, bbox: [-97, 35, -97, 35], crs: 'EPSG:4326' },
    });
    expect(substations.fields).toContain('substations_within_radius_count');
    expect(sources.body.sources.find((entry: { id: string }) => entry.id === 'usgs_3dep')).toMatchObject({ geometry: 'grid', current_version: null });
  });

  it('reprojects a Shapefile in Web Mercator (.prj) and loads a GeoTIFF grid, both answered by the engine', async () => {
    const bytes = writeShapefile('point', [{ name: 'PLANT', type: 'C', length: 20 }, { name: 'MW', type: 'N', length: 10, decimals: 1 }], [
      { shape: webMercator(-96.5, 34), attributes: { PLANT: 'Riverside', MW: 512.5 } },
    ]);
    for (const [extension, data] of Object.entries({ shp: bytes.shp, shx: bytes.shx, dbf: bytes.dbf, prj: Buffer.from(WEB_MERCATOR_PRJ) })) {
      writeFileSync(path.join(dir, `plants.${extension}`), data);
    }
    const plants = await run(
      ['import', 'layer', '--source', 'eia_860_power_plants', '--file', path.join(dir, 'plants.shp'), '--map', 'PLANT=name,MW=capacity_mw'],
      env,
    );
    expect(plants.code).toBe(0);
    const tiff = path.join(dir, 'dem.tif');
    writeFileSync(
      tiff,
      new Uint8Array(
        writeArrayBuffer(Float32Array.from([200, 210, 220, 230]), {
          width: 2,
          height: 2,
          ModelPixelScale: [0.1, 0.1, 0],
          ModelTiepoint: [0, 0, 0, -96.6, 34.1, 0],
          GTModelTypeGeoKey: 2,
          GTRasterTypeGeoKey: 1,
          GeographicTypeGeoKey: 4326,
        }),
      ),
    );
    const dem = await run(['import', 'layer', '--source', 'usgs_3dep', '--file', tiff, '--name', '3DEP 1/3 arc-second'], env);
    expect(dem.code).toBe(0);
    expect(VERSION_LINE.exec(dem.stdout)?.slice(3)).toEqual(['4', 'cells']);

    // 0.01° north of the plant; the DEM's four cell centres are at -96.55/-96.45 and 34.05/33.95:
    // (-96.5, 34.01) is halfway across and 0.4 of the way down, so 205 + 0.4 · 20 = 213.
    const [distance, name, capacity, elevation] = await evaluate(
      ['nearest_power_plant_distance_m', 'nearest_power_plant_name', 'nearest_power_plant_capacity_mw', 'elevation'],
      34.01,
      -96.5,
    );
    expect(Math.abs((distance.value.value as number) - 1109) / 1109).toBeLessThan(0.005);
    expect(name.value.value).toBe('Riverside');
    expect(capacity.value.value).toBe(512.5);
    expect(elevation.value.value).toBeCloseTo(213, 3);

    const listed = await run(['layers'], env);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^SOURCE\s+VERSION\s+NAME\s+FEATURES\/CELLS\s+STORED\s+ENGINE MEMORY\s+BBOX\s+LOADED AT\s+CURRENT$/);
    expect(lines.find((line) => line.startsWith('usgs_3dep'))).toMatch(/3DEP 1\/3 arc-second\s+4 cells\s+0\.00 MB\s+0\.00 MB\s+-96\.6000,33\.9000,-96\.4000,34\.1000\s+\S+\s+current/);
    expect(lines.find((line) => line.startsWith('eia_860_power_plants'))).toMatch(/plants\.shp\s+1 features/);
  });

  it('fails an import with a bad feature, naming it, and leaves nothing; an unknown source gets a did-you-mean', async () => {
    const before = await run(['layers'], env);
    const points = Array.from({ length: 5_000 }, (_, i) => ({ lon: -100 + i * 0.0001, lat: 36 }));
    points[4_200] = { lon: 190, lat: 36 };
    const file = path.join(dir, 'bad.geojson');
    writeFileSync(file, pointCollection(points));
    const failed = await run(['import', 'layer', '--source', 'hifld_substations', '--file', file], env);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('feature 4201 (line 4202)');
    expect(failed.stdout).toContain('nothing was imported; the current version of hifld_substations is unchanged');
    expect((await run(['layers'], env)).stdout).toBe(before.stdout);

    const unknown = await run(['import', 'layer', '--source', 'hifld_substaions', '--file', file], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toContain('unknown source "hifld_substaions" (did you mean "hifld_substations"?)');
  });
});

describe('layers on the embedded default (PGlite), imported through the running server', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-layers-pglite-'));
  const env = { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' };
  let server: ChildProcess;
  let url: string;

  beforeAll(async () => {
    const started = startLandscreenServer({ ...env, WORKER_EMBEDDED: '0' });
    server = started.child;
    url = await started.url;
  });
  afterAll(() => {
    if (server?.exitCode === null) server.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('imports a layer through the server that owns PGlite and publishes it at /v1/meta/sources', async () => {
    const file = path.join(dataDir, 'wetlands.geojson');
    const square = [[[-97, 35], [-96.99, 35], [-96.99, 35.01], [-97, 35.01], [-97, 35]]];
    writeFileSync(
      file,
      JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Polygon', coordinates: square }, properties: { ATTRIBUTE: 'PEM1C' } }] }),
    );
    const imported = await run(['import', 'layer', '--source', 'usfws_nwi', '--file', file, '--map', 'ATTRIBUTE=wetland_type'], env);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    const [, , versionId] = VERSION_LINE.exec(imported.stdout)!;
    const sources = await httpClient(url).get('/v1/meta/sources');
    const nwi = sources.body.sources.find((entry: { id: string }) => entry.id === 'usfws_nwi');
    expect(nwi.current_version).toMatchObject({ id: versionId, feature_count: 1, format: 'geojson' });
    const listed = await run(['layers'], env);
    expect(listed.stdout).toContain(versionId);
  });
});
