import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LayerReadError } from './errors.js';
import { detectFormat, layerFormatFromExtension, READABLE_FORMATS } from './format.js';
import { readLayer } from './read-layer.js';
import { fixture } from './testing/fixtures.js';
import { collect, makeTempDir, rejection, type TempDir } from './testing/temp-dir.js';
import { writeZip } from './testing/zip-writer.js';

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(async () => {
  await dir.remove();
});

/** A copy of a fixture under a name that says nothing about its format. */
async function anonymous(name: string): Promise<string> {
  const copy = join(dir.path, `${name}.data`);
  await copyFile(fixture(name), copy);
  return copy;
}

describe('layerFormatFromExtension', () => {
  it('names the format an extension hints at', () => {
    const expected = {
      'a.geojson': 'geojson',
      'a.ndjson': 'ndjson',
      'a.CSV': 'csv',
      'a.shp': 'shapefile',
      'a.gpkg': 'gpkg',
      'NWI.gdb': 'filegdb',
      'a.fgb': 'flatgeobuf',
      'a.kml': 'kml',
      'a.KMZ': 'kmz',
      'a.xlsx': 'xlsx',
      'a.tif': 'geotiff',
      'a.TIFF': 'geotiff',
    };
    for (const [name, format] of Object.entries(expected)) expect(layerFormatFromExtension(name)).toBe(format);
  });
});

describe('detectFormat, by content', () => {
  it('tells every format GDAL wrote by its bytes, whatever the file is called', async () => {
    const cases = {
      'layers.gpkg': 'gpkg',
      'layers.gdb.zip': 'filegdb',
      'counties.fgb': 'flatgeobuf',
      'plants.kml': 'kml',
      'counties.kmz': 'kmz',
      'plants.xlsx': 'xlsx',
      'counties.zip': 'shapefile',
      'counties.geojson': 'geojson',
    };
    for (const [name, format] of Object.entries(cases)) expect([name, await detectFormat(await anonymous(name))]).toEqual([name, format]);
    expect(await detectFormat(fixture('layers.gdb'))).toBe('filegdb');
  });

  it('tells the magic numbers of TIFF and .shp and text formats as parcel files', async () => {
    const files: Array<[Buffer | string, string]> = [
      [Buffer.from([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0]), 'geotiff'],
      [Buffer.from([0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8]), 'geotiff'],
      [Buffer.from([0x00, 0x00, 0x27, 0x0a, 0, 0]), 'shapefile'],
      ['{"type": "FeatureCollection", "features": []}', 'geojson'],
      ['{"type": "Feature", "geometry": null, "properties": {}}\n', 'ndjson'],
      ['name,lat,lon\n', 'csv'],
      ['<?xml version="1.0"?>\n<!-- exported -->\n<kml:kml xmlns:kml="http://www.opengis.net/kml/2.2"></kml:kml>', 'kml'],
    ];
    for (const [i, [content, format]] of files.entries()) {
      expect(await detectFormat(await dir.write(`layer-${i}.data`, content))).toBe(format);
    }
  });

  it('refuses what no reader takes by what it is, listing the readable formats', async () => {
    const refusals: Array<[string, Buffer | string, RegExp]> = [
      ['report.pdf', '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', /is a PDF document, not a layer file/],
      ['old.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), /old Excel\/Office \(OLE2\) file, such as \.xls: save it as \.xlsx/],
      ['data.sqlite', Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(100)]), /an SQLite database that is not a GeoPackage/],
      ['page.geojson', '<!DOCTYPE html><html><body>Not found</body></html>', /an HTML page/],
      ['blob.bin', Buffer.from([1, 2, 3, 0, 4, 5, 6, 7]), /is an unknown binary format/],
      ['notes.zip', writeZip([{ name: 'readme.txt', data: Buffer.from('hello') }]), /the zip holds no layer .*it holds readme\.txt/],
      ['nested.zip', writeZip([{ name: 'data/layer.gpkg', data: Buffer.from('x') }]), /the zip holds layer\.gpkg: unzip it/],
    ];
    for (const [name, content, message] of refusals) {
      const file = await dir.write(name, content);
      const error = await rejection(() => detectFormat(file));
      expect(error).toBeInstanceOf(LayerReadError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toContain(`readable formats are: ${READABLE_FORMATS}`);
    }
  });

  it('takes a folder only when it is a FileGDB', async () => {
    const folder = join(dir.path, 'tiles');
    await mkdir(folder);
    const error = await rejection(() => detectFormat(folder));
    expect((error as Error).message).toMatch(/is a folder, not a layer file/);
  });

  it('sends a GeoTIFF to readGrid rather than reading it as features', async () => {
    const file = await dir.write('elevation.tif', Buffer.from([0x49, 0x49, 0x2a, 0x00]));
    const error = await rejection(() => collect(readLayer(file)));
    expect(error).toBeInstanceOf(LayerReadError);
    expect((error as Error).message).toBe(`${file}: a GeoTIFF is a grid, not features: read it with readGrid`);
  });
});
