// Multi-layer files and workbooks: the layer or sheet an import reads is named (--layer, --sheet,
// --header-row), and a missing or ambiguous choice is refused with what the file holds.

import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LayerReadError } from '../errors.js';
import { readLayer } from '../read-layer.js';
import { fixture } from '../testing/fixtures.js';
import { collect, makeTempDir, rejection, type TempDir } from '../testing/temp-dir.js';
import type { ReadLayerOptions } from '../types.js';

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(async () => {
  await dir.remove();
});

async function refusal(file: string, options: ReadLayerOptions = {}): Promise<string> {
  const error = await rejection(() => collect(readLayer(file, options)));
  expect(error).toBeInstanceOf(LayerReadError);
  return (error as Error).message;
}

describe('choosing a layer', () => {
  it('refuses a GeoPackage or FileGDB of several layers without --layer, listing them', async () => {
    expect(await refusal(fixture('layers.gpkg'))).toBe(`${fixture('layers.gpkg')}: holds 2 layers: choose one with --layer NAME ("counties", "plants")`);
    expect(await refusal(fixture('layers.gdb.zip'), { gdal: 'wasm' })).toContain('holds 2 layers: choose one with --layer NAME ("counties", "plants")');
  });

  it('names the layers when --layer names none of them', async () => {
    expect(await refusal(fixture('layers.gpkg'), { layer: 'S_FLD_HAZ_AR' })).toContain('has no layer "S_FLD_HAZ_AR"; its layers are "counties", "plants"');
    expect(await refusal(fixture('layers.gdb'), { layer: 'S_FLD_HAZ_AR', gdal: 'wasm' })).toContain('has no layer "S_FLD_HAZ_AR"; its layers are "counties", "plants"');
  });

  it('takes a single-layer file without --layer', async () => {
    expect(await collect(readLayer(fixture('counties-albers.gpkg')))).toHaveLength(254);
  });
});

describe('choosing a sheet and its header row', () => {
  it('names the sheets when --sheet names none of them', async () => {
    expect(await refusal(fixture('plants.xlsx'), { sheet: 'Generators' })).toContain('has no sheet "Generators"; its sheets are "Plant"');
  });

  it('refuses a --header-row that names no latitude and longitude columns, saying what it names', async () => {
    expect(await refusal(fixture('plants.xlsx'), { headerRow: 1 })).toContain(
      'row 1 (--header-row) has no latitude and longitude columns (it names "Form EIA-860 Data - Schedule 2 - Plant Data (fixture)")',
    );
  });

  it('gives each feature its sheet row as its position', async () => {
    const features = await collect(readLayer(fixture('plants.xlsx')));
    expect(features[0].position).toEqual({ index: 1, row: 3 });
  });
});

describe('a GeoPackage whose CRS cannot be known', () => {
  it('is refused before the first feature, naming the layer', async () => {
    const copy = join(dir.path, 'unknown-crs.gpkg');
    await copyFile(fixture('counties-albers.gpkg'), copy);
    const db = new sqlite.Database(copy);
    try {
      db.run(`insert into gpkg_spatial_ref_sys (srs_name, srs_id, organization, organization_coordsys_id, definition)
              values ('local grid', 990001, 'LOCAL', 1, 'LOCAL_CS["local grid"]')`);
      db.run(`update gpkg_geometry_columns set srs_id = 990001`);
      db.run(`update gpkg_contents set srs_id = 990001`);
    } finally {
      db.close();
    }
    expect(await refusal(copy)).toMatch(/layer "counties": .*cannot be reprojected to WGS84/);
  });
});
