// openGrid over GeoTIFFs written by GDAL (fixtures/dem, make-fixtures.sh): Cloud-Optimized tiles
// in DEFLATE and LZW with both predictors, a BigTIFF, a striped file, NAD83, UTM and Albers, a
// sparse file, and the files an import must refuse. Cells are checked against the ASCII grids
// GDAL wrote them from, and points against gdallocationinfo's answers recorded with them.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LayerReadError } from '../errors.js';
import { DEM_FIXTURES, demFixture, MOSAIC, MOSAIC_HOLE, readAsciiGrid } from '../testing/dem-fixtures.js';
import { rejection } from '../testing/temp-dir.js';
import { createGridLocator } from './locator.js';
import { openGrid, type GridFile } from './open-grid.js';
import { readGrid } from './read-grid.js';

const TILES = [
  { file: 'tiles/dem_r0c0.tif', col: 0, row: 0, layout: { tiled: true, compression: 8, predictor: 2, bigTiff: false } },
  { file: 'tiles/dem_r0c1.tif', col: 1, row: 0, layout: { tiled: true, compression: 5, predictor: 3, bigTiff: false } },
  { file: 'tiles/dem_r1c0.tif', col: 0, row: 1, layout: { tiled: true, compression: 8, predictor: 3, bigTiff: true } },
  { file: 'tiles/dem_r1c1.tif', col: 1, row: 1, layout: { tiled: false, compression: 8, predictor: 2, bigTiff: false } },
] as const;

const expected = JSON.parse(readFileSync(`${DEM_FIXTURES}/expected.json`, 'utf8')) as Record<string, { lon: number; lat: number; value: number | null }[]>;

async function withGrid<T>(file: string, use: (grid: GridFile) => Promise<T>): Promise<T> {
  const grid = await openGrid(demFixture(file));
  try {
    return await use(grid);
  } finally {
    await grid.close();
  }
}

describe('openGrid on the tiles of a DEM written by GDAL', () => {
  const source = readAsciiGrid(demFixture('source', 'dem.asc'));
  const half = MOSAIC.width / 2;

  it.each(TILES)('reads $file ($layout.compression, predictor $layout.predictor) cell for cell as the ASCII grid it was made from', async ({ file, col, row, layout }) => {
    const grid = await readGrid(demFixture(file));
    expect([grid.width, grid.height, grid.noData, grid.crs.label]).toEqual([half, half, -9999, 'EPSG:4269']);
    const [west, cell, , north] = grid.geoTransform;
    expect(west).toBeCloseTo(MOSAIC.west + col * half * MOSAIC.cell, 9);
    expect(north).toBeCloseTo(MOSAIC.north - row * half * MOSAIC.cell, 9);
    expect(cell).toBeCloseTo(MOSAIC.cell, 12);
    for (let r = 0; r < half; r++) {
      for (let c = 0; c < half; c++) {
        const want = source.values[(row * half + r) * MOSAIC.width + col * half + c];
        expect(grid.values[r * half + c]).toBeCloseTo(want, 3);
      }
    }
    await withGrid(file, async (opened) => expect(opened.header.layout).toMatchObject(layout));
  });

  it('keeps the nodata hole as the declared nodata value', async () => {
    const grid = await readGrid(demFixture('tiles', 'dem_r1c1.tif'));
    const locator = createGridLocator(grid);
    expect(locator.cellValue(MOSAIC_HOLE.col0 - half, MOSAIC_HOLE.row0 - half)).toBeNull();
    expect(locator.cellValue(MOSAIC_HOLE.col0 - half - 1, MOSAIC_HOLE.row0 - half)).not.toBeNull();
  });

  it.each(Object.keys(expected))('answers %s where gdallocationinfo -wgs84 did', async (file) => {
    const locator = createGridLocator(await readGrid(demFixture(file)));
    for (const point of expected[file]) {
      const value = locator.valueAt(point.lon, point.lat);
      if (point.value === null) expect(value).toBeNull();
      else expect(value).toBeCloseTo(point.value, 3);
    }
  });

  it('reads a projected grid (UTM 14N, CONUS Albers) in its own CRS, bounds reprojected', async () => {
    for (const [file, label] of [['utm/dem_utm14.tif', 'EPSG:26914'], ['albers/dem_albers.tif', 'EPSG:5070']] as const) {
      await withGrid(file, async ({ header }) => {
        expect(header.crs.label).toBe(label);
        const [minLon, minLat, maxLon, maxLat] = header.bbox;
        expect(minLon).toBeLessThan(-97.92);
        expect(maxLon).toBeGreaterThan(-97.92);
        expect(minLat).toBeLessThan(30.08);
        expect(maxLat).toBeGreaterThan(30.08);
      });
    }
  });
});

describe('windows', () => {
  it('cover the grid once, aligned to the block size, each within the cell budget', async () => {
    for (const file of ['tiles/dem_r0c0.tif', 'tiles/dem_r1c1.tif', 'utm/dem_utm14.tif']) {
      await withGrid(file, async (grid) => {
        const { width, height } = grid.header;
        const whole = await readGrid(demFixture(file));
        const seen = new Uint8Array(width * height);
        for await (const window of grid.windows({ alignTo: 8, maxCells: 8 * 16 })) {
          expect(window.col % 8).toBe(0);
          expect(window.row % 8).toBe(0);
          expect(window.width * window.height).toBeLessThanOrEqual(8 * 16);
          expect(window.width % 8 === 0 || window.col + window.width === width).toBe(true);
          for (let r = 0; r < window.height; r++) {
            for (let c = 0; c < window.width; c++) {
              const at = (window.row + r) * width + window.col + c;
              seen[at]++;
              expect(window.values[r * window.width + c]).toBe(whole.values[at]);
            }
          }
        }
        expect(seen.every((count) => count === 1)).toBe(true);
      });
    }
  });

  it('gives no data (NaN) for a block a sparse file has no bytes for, not the 0 geotiff.js fills in', async () => {
    await withGrid('partial/sparse.tif', async (grid) => {
      expect(grid.header.noData).toBeNull();
      expect(grid.header.layout.emptyBlocks).toBe(1);
      const window = await grid.read(0, 0, 32, 32);
      // The missing block is the top right one (columns 16-31, rows 0-15).
      expect(Number.isNaN(window.values[0 * 32 + 16])).toBe(true);
      expect(Number.isNaN(window.values[15 * 32 + 31])).toBe(true);
      expect(Number.isNaN(window.values[16 * 32 + 16])).toBe(false);
      expect(Number.isNaN(window.values[0 * 32 + 15])).toBe(false);
    });
  });
});

describe('refusals, each naming the file and the fix', () => {
  async function refusal(file: string, options: Parameters<typeof openGrid>[1] = {}): Promise<LayerReadError> {
    const path = demFixture(file);
    const error = await rejection(() => openGrid(path, options));
    expect(error).toBeInstanceOf(LayerReadError);
    expect((error as LayerReadError).file).toBe(path);
    expect((error as Error).message.startsWith(`${path}: `)).toBe(true);
    return error as LayerReadError;
  }

  it('a truncated file: a tile whose bytes lie past the end', async () => {
    const error = await refusal('refused/truncated.tif');
    expect(error.reason).toMatch(/^the file is truncated: tile \d+ of 16 ends at byte [\d,]+, past the end of the file \([\d,]+ bytes\); download or copy it again$/);
  });

  it('a header claiming more cells than the limit, before any cell is read (a 33 KB file of 16,384 x 16,384 cells)', async () => {
    const error = await refusal('refused/huge-header.tif', { cellLimit: { max: 100_000_000, setting: 'LAYER_MAX_CELLS' } });
    expect(error.reason).toBe(
      'its header claims 16,384 × 16,384 = 268,435,456 cells, more than LAYER_MAX_CELLS (100,000,000); raise LAYER_MAX_CELLS if the raster is genuine, or clip it (gdal_translate -projwin)',
    );
  });

  it('a raster without cells (0 x 0)', async () => {
    expect((await refusal('refused/empty.tif')).reason).toBe('the GeoTIFF holds no cells (0 × 0); export the raster again');
  });

  it('three bands where a grid has one', async () => {
    expect((await refusal('refused/rgb.tif')).reason).toBe('the GeoTIFF has 3 bands; a grid layer needs a single band (gdal_translate -b 1 keeps the first)');
  });

  it('a CRS the geokeys spell out instead of naming an EPSG code', async () => {
    expect((await refusal('refused/custom-crs.tif')).reason).toBe(
      'its ProjectedCSTypeGeoKey is user-defined (32767), not an EPSG code; reproject it with one (e.g. gdalwarp -t_srs EPSG:4326)',
    );
  });

  it('a file that is not there', async () => {
    expect((await refusal('refused/absent.tif')).reason).toBe('no such file');
  });
});
