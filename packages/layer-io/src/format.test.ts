import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LayerReadError } from './errors.js';
import { detectFormat } from './format.js';
import { readLayer } from './read-layer.js';
import { collect, makeTempDir, rejection, type TempDir } from './testing/temp-dir.js';

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(async () => {
  await dir.remove();
});

describe('detectFormat', () => {
  it('goes by the extension when there is one it knows', async () => {
    const expected = { 'a.geojson': 'geojson', 'a.ndjson': 'ndjson', 'a.CSV': 'csv', 'a.shp': 'shapefile', 'a.zip': 'shapefile', 'a.tif': 'geotiff', 'a.TIFF': 'geotiff' };
    for (const [name, format] of Object.entries(expected)) expect(await detectFormat(name)).toBe(format);
  });

  it('tells binary formats by their magic numbers and text ones as parcel files', async () => {
    const files: Array<[Buffer | string, string]> = [
      [Buffer.from([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0]), 'geotiff'],
      [Buffer.from([0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8]), 'geotiff'],
      [Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0]), 'shapefile'],
      [Buffer.from([0x00, 0x00, 0x27, 0x0a, 0, 0]), 'shapefile'],
      ['{"type": "FeatureCollection", "features": []}', 'geojson'],
      ['{"type": "Feature", "geometry": null, "properties": {}}\n', 'ndjson'],
      ['name,lat,lon\n', 'csv'],
    ];
    for (const [i, [content, format]] of files.entries()) {
      expect(await detectFormat(await dir.write(`layer-${i}.data`, content))).toBe(format);
    }
  });

  it('sends a GeoTIFF to readGrid rather than reading it as features', async () => {
    const file = await dir.write('elevation.tif', Buffer.from([0x49, 0x49, 0x2a, 0x00]));
    const error = await rejection(() => collect(readLayer(file)));
    expect(error).toBeInstanceOf(LayerReadError);
    expect((error as Error).message).toBe(`${file}: a GeoTIFF is a grid, not features: read it with readGrid`);
  });
});
