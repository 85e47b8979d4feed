import { writeArrayBuffer } from 'geotiff';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LayerReadError } from '../errors.js';
import { metresBetween, utmNorthingOnCentralMeridian } from '../testing/geodesy.js';
import { makeTempDir, rejection, type TempDir } from '../testing/temp-dir.js';
import { createGridLocator } from './locator.js';
import { readGrid } from './read-grid.js';

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(async () => {
  await dir.remove();
});

type Metadata = Parameters<typeof writeArrayBuffer>[1];

async function writeTiff(name: string, values: ArrayLike<number>, metadata: Metadata): Promise<string> {
  return dir.write(name, new Uint8Array(writeArrayBuffer(values as Float32Array, metadata)));
}

// A 4 × 3 grid of 30 m cells in NAD83 / UTM zone 14N whose cell (col 2, row 1) holds the point
// 30°N 99°W (on the zone's central meridian: easting 500,000 m).
const NORTHING_30N = utmNorthingOnCentralMeridian(30);
const UTM_METADATA: Metadata = {
  width: 4,
  height: 3,
  ModelPixelScale: [30, 30, 0],
  ModelTiepoint: [0, 0, 0, 500_000 - 2 * 30 - 10, NORTHING_30N + 30 + 10, 0],
  GTModelTypeGeoKey: 1,
  GTRasterTypeGeoKey: 1,
  ProjectedCSTypeGeoKey: 26914,
  GDAL_NODATA: '-9999',
};
const UTM_VALUES = Float32Array.from([100, 101, 102, 103, 110, 111, 112.5, -9999, 120, 121, 122, 123]);

describe('readGrid on a GeoTIFF in a projected CRS (geokeys)', () => {
  it('keeps the native grid and finds the cell of a WGS84 point through the inverse projection', async () => {
    const grid = await readGrid(await writeTiff('utm.tif', UTM_VALUES, { ...UTM_METADATA }));
    expect(grid.crs).toEqual({ label: 'EPSG:26914', definition: 'EPSG:26914' });
    expect([grid.width, grid.height, grid.noData]).toEqual([4, 3, -9999]);
    expect(grid.geoTransform).toEqual([500_000 - 70, 30, 0, NORTHING_30N + 40, 0, -30]);
    const locator = createGridLocator(grid);
    expect(locator.cellAt(-99, 30)).toEqual({ col: 2, row: 1 });
    expect(locator.valueAt(-99, 30)).toBe(112.5);
    // About 25 m east (one cell) lands in the no-data cell; 1 km away is off the grid.
    expect(locator.valueAt(-99 + 25 / 96_486, 30)).toBeNull();
    expect(locator.valueAt(-98.99, 30)).toBeNull();
    const [minLon, minLat, maxLon, maxLat] = grid.bbox;
    expect(minLon).toBeLessThan(-99);
    expect(maxLon).toBeGreaterThan(-99);
    expect(minLat).toBeLessThan(30);
    expect(maxLat).toBeGreaterThan(30);
    // Cells are 30 m of grid; on the ground that is 30 m divided by the UTM scale factor (0.9996) here.
    const [dx, dy] = locator.cellSizeMetres(1, 1);
    expect(dx).toBeCloseTo(30 / 0.9996, 0);
    expect(dy).toBeCloseTo(30 / 0.9996, 0);
    // The centre of the point's cell is within half a cell's diagonal of the point.
    expect(metresBetween(locator.cellCentre(2, 1), [-99, 30])).toBeLessThan(22);
  });

  it('converts integer samples to floats', async () => {
    // 8-bit: geotiff.js's writer writes one byte per sample whatever the array type.
    const bytes = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 255, 9, 10, 11, 12]);
    const grid = await readGrid(await writeTiff('uint8.tif', bytes, { ...UTM_METADATA, GDAL_NODATA: '255' }));
    expect(grid.values).toBeInstanceOf(Float32Array);
    expect(Array.from(grid.values.subarray(0, 4))).toEqual([1, 2, 3, 4]);
    expect(createGridLocator(grid).cellValue(3, 1)).toBeNull();
  });

  it('moves a point-registered grid (PixelIsPoint) by half a cell, as GDAL does', async () => {
    const grid = await readGrid(await writeTiff('point.tif', UTM_VALUES, { ...UTM_METADATA, GTRasterTypeGeoKey: 2 }));
    expect(grid.geoTransform[0]).toBe(500_000 - 70 - 15);
    expect(grid.geoTransform[3]).toBe(NORTHING_30N + 40 + 15);
  });
});

describe('readGrid on a GeoTIFF in EPSG:4326', () => {
  it('answers values by longitude/latitude with the exact bounds', async () => {
    const values = Float32Array.from({ length: 6 }, (_, i) => i * 10);
    const grid = await readGrid(
      await writeTiff('wgs84.tif', values, {
        width: 3,
        height: 2,
        ModelPixelScale: [0.01, 0.01, 0],
        ModelTiepoint: [0, 0, 0, -97.5, 30.3, 0],
        GTModelTypeGeoKey: 2,
        GTRasterTypeGeoKey: 1,
        GeographicTypeGeoKey: 4326,
      }),
    );
    expect(grid.crs.label).toBe('EPSG:4326');
    expect(grid.noData).toBeNull();
    grid.bbox.forEach((value, i) => expect(value).toBeCloseTo([-97.5, 30.28, -97.47, 30.3][i], 9));
    const locator = createGridLocator(grid);
    expect(locator.valueAt(-97.475, 30.285)).toBe(50);
    expect(locator.valueAt(-97.495, 30.295)).toBe(0);
    expect(locator.valueAt(-97.4, 30.295)).toBeNull();
  });
});

describe('readGrid refusals', () => {
  async function refusal(name: string, values: ArrayLike<number>, metadata: Metadata): Promise<LayerReadError> {
    const file = await writeTiff(name, values, metadata);
    const error = await rejection(() => readGrid(file));
    expect(error).toBeInstanceOf(LayerReadError);
    expect((error as Error).message.startsWith(`${file}: `)).toBe(true);
    return error as LayerReadError;
  }

  it('refuses a user-defined projected CRS it cannot know', async () => {
    const error = await refusal('userdefined.tif', UTM_VALUES, { ...UTM_METADATA, ProjectedCSTypeGeoKey: 32767 });
    expect(error.reason).toMatch(/ProjectedCSTypeGeoKey is user-defined \(32767\)/);
  });

  it('refuses an EPSG code that names no horizontal CRS', async () => {
    const error = await refusal('vertical.tif', UTM_VALUES, { ...UTM_METADATA, ProjectedCSTypeGeoKey: 5703 });
    expect(error.reason).toMatch(/EPSG:5703 is not a CRS this build can reproject/);
  });

  it('refuses more than one band', async () => {
    const { GDAL_NODATA: _, ...metadata } = UTM_METADATA;
    const error = await refusal('rgb.tif', new Uint8Array(36), metadata);
    expect(error.reason).toBe('the GeoTIFF has 3 bands; a grid layer needs a single band (gdal_translate -b 1 keeps the first)');
  });

  it('refuses a file that is no TIFF', async () => {
    const file = await dir.write('not.tif', 'hello');
    const error = await rejection(() => readGrid(file));
    expect((error as Error).message).toMatch(new RegExp(`^${file}: not a readable GeoTIFF`));
  });
});
