// A DEM as 3DEP ships it — several GeoTIFF tiles written by GDAL — imported as one layer version
// and bought over REST (POST /v1/fetch/batch) on PGlite and PostgreSQL: elevation in each tile
// and across a seam as the ASCII grid the tiles were made from says, the nodata hole null with
// its reason, and a refused import leaving the version current. Then `landscreen import layer`
// and `landscreen layers` as processes of their own: --file repeated, a folder, LAYER_MAX_CELLS.

import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogDb, importLayer } from '@landscreen/catalog-service';
import { bilinearReference, demFixture, holeBounds, readAsciiGrid } from '@landscreen/layer-io/testing/dem-fixtures';
import { DATABASE_MODES, startTestStack, type TestDatabase, type TestStack } from '@landscreen/testing';
import { runLandscreen as run } from '../support/cli-process.js';

const TILES = ['dem_r0c0.tif', 'dem_r0c1.tif', 'dem_r1c0.tif', 'dem_r1c1.tif'].map((name) => demFixture('tiles', name));
const ascii = readAsciiGrid(demFixture('source', 'dem.asc'));
const [holeWest, holeSouth, holeEast, holeNorth] = holeBounds();
const headers = (tenant: string) => ({ authorization: `Bearer dev:ann@${tenant}.test`, 'x-tenant': tenant });

/** A point inside each tile, two either side of the vertical seam, the hole, and one off the mosaic. */
const LOCATIONS = [
  { id: 'nw', lon: -97.97, lat: 30.13 },
  { id: 'ne', lon: -97.88, lat: 30.14 },
  { id: 'sw', lon: -97.95, lat: 30.02 },
  { id: 'se', lon: -97.85, lat: 30.02 },
  { id: 'seam-west', lon: -97.92 - 0.0004, lat: 30.111 },
  { id: 'seam-east', lon: -97.92 + 0.0004, lat: 30.111 },
  { id: 'hole', lon: (holeWest + holeEast) / 2, lat: (holeSouth + holeNorth) / 2 },
  { id: 'off', lon: -97.5, lat: 30.1 },
];

describe.each(DATABASE_MODES)('a DEM of four GeoTIFF tiles bought over REST (%s)', (mode) => {
  let app: TestStack;
  const fetchElevation = (tenant: string) =>
    app.post('/v1/fetch/batch', { locations: LOCATIONS.map(({ id, lat, lon }) => ({ id, lat, lon })), fields: ['elevation', 'slope_degrees'] }, { headers: headers(tenant) });

  beforeAll(async () => {
    app = await startTestStack(mode);
  });
  afterAll(() => app?.close());

  it('answers each tile and the seam from the cells, the hole null no_data, charged per field asked as the billing rules say', async () => {
    await importLayer(catalogDb(app.stack.database.db), { source: 'usgs_3dep', file: TILES });
    const response = await fetchElevation(`${mode}-dem`);
    expect(response.status).toBe(200);
    const results = response.body.results as { id: string; values: Record<string, number | null>; null_reasons: Record<string, string> }[];
    expect(results.map((result) => result.id)).toEqual(LOCATIONS.map((location) => location.id));
    for (const [n, location] of LOCATIONS.slice(0, 6).entries()) {
      // Answers show metres to one decimal (the catalog's rounding per unit): within half of that.
      expect(Math.abs(results[n].values.elevation! - bilinearReference(ascii, location.lon, location.lat)!)).toBeLessThanOrEqual(0.05 + 1e-9);
      expect(results[n].values.slope_degrees).toBeTypeOf('number');
      expect(results[n].null_reasons).toEqual({});
    }
    // Across the seam the surface goes on: two points 90 m apart differ by what its slope says, not by a step.
    expect(Math.abs(results[4].values.elevation! - results[5].values.elevation!)).toBeLessThan(5);
    expect(results[6]).toMatchObject({ values: { elevation: null, slope_degrees: null }, null_reasons: { elevation: 'no_data', slope_degrees: 'no_data' } });
    expect(results[7]).toMatchObject({ values: { elevation: null }, null_reasons: { elevation: 'outside_coverage' } });
    // Rule 1: fetch credits per requested field per location, whatever the value.
    expect(response.body.credits).toMatchObject({ charged: 2 * LOCATIONS.length, per_location: 2 });
  });

  it('a refused import (a truncated tile among them) leaves the same answers', async () => {
    const before = (await fetchElevation(`${mode}-before`)).body.results;
    await expect(importLayer(catalogDb(app.stack.database.db), { source: 'usgs_3dep', file: [...TILES, demFixture('refused', 'truncated.tif')] })).rejects.toThrow(
      /truncated\.tif: the file is truncated/,
    );
    expect((await fetchElevation(`${mode}-after`)).body.results).toEqual(before);
  });
});

describe('landscreen import layer with GeoTIFF tiles, as a process, on PostgreSQL', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-rasters-'));
  let app: TestStack;
  let env: Record<string, string>;

  beforeAll(async () => {
    app = await startTestStack('postgres');
    env = { DATABASE_URL: (app.stack.database as TestDatabase).url, DATA_DIR: dir, LOG_LEVEL: 'silent' };
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes --file repeated, or a folder, as one version, and lists its cells, tiles, stored bytes and engine memory', async () => {
    const repeated = await run(['import', 'layer', '--source', 'usgs_3dep', ...TILES.flatMap((file) => ['--file', file])], env);
    expect(repeated.stderr).toBe('');
    expect(repeated.code).toBe(0);
    expect(repeated.stdout).toMatch(/importing 4 files .*100% 4,096 cells/);
    expect(repeated.stdout).toMatch(/source usgs_3dep: layer version [0-9a-f-]{36} with 4,096 cells is now current/);

    const folder = path.join(dir, 'USGS_1_tiles');
    mkdirSync(folder);
    for (const file of TILES) cpSync(file, path.join(folder, path.basename(file)));
    const fromFolder = await run(['import', 'layer', '--source', 'usgs_3dep', '--file', folder], env);
    expect(fromFolder.code).toBe(0);
    const listed = await run(['layers'], env);
    const current = listed.stdout.split('\n').find((line) => line.startsWith('usgs_3dep') && line.endsWith('current'));
    // 64 x 64 float32 cells: 16 KiB to hold whole.
    expect(current).toMatch(/USGS_1_tiles\s+4,096 cells in 4 tiles\s+0\.\d\d MB\s+0\.02 MB\s+-98\.0000,30\.0000,-97\.8400,30\.1600\s/);
  });

  it('refuses, naming the file and the fix, and leaves the current version: a truncated tile, LAYER_MAX_CELLS', async () => {
    const before = (await run(['layers'], env)).stdout;
    const truncated = demFixture('refused', 'truncated.tif');
    const cut = await run(['import', 'layer', '--source', 'usgs_3dep', '--file', TILES[0], '--file', truncated], env);
    expect(cut.code).toBe(1);
    expect(cut.stdout).toContain(`error: ${truncated}: the file is truncated: tile`);
    expect(cut.stdout).toContain('nothing was imported; the current version of usgs_3dep is unchanged');
    const huge = demFixture('refused', 'huge-header.tif');
    const tooLarge = await run(['import', 'layer', '--source', 'usgs_3dep', '--file', huge], { ...env, LAYER_MAX_CELLS: '100000000' });
    expect(tooLarge.code).toBe(1);
    expect(tooLarge.stdout).toContain(`error: ${huge}: its header claims 16,384 × 16,384 = 268,435,456 cells, more than LAYER_MAX_CELLS (100,000,000)`);
    expect((await run(['layers'], env)).stdout).toBe(before);
  });
});

