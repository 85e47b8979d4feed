// Every import limit and refusal of a hostile or broken file, on GDAL-written fixtures
// (fixtures/refused, scripts/make-refused-fixtures.sh) or files written here where no GIS tool
// would write them (JSON nested 100,000 deep, a 10 MB attribute value).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, COUNTIES } from '../testing/fixtures.js';
import { collect, makeTempDir, rejection, type TempDir } from '../testing/temp-dir.js';
import { readLayer } from '../read-layer.js';
import { LayerReadError } from '../errors.js';
import { openZipArchive } from '../zip/zip-archive.js';
import type { ReadLayerOptions } from '../types.js';

const refused = (name: string) => fixture(`refused/${name}`);

async function refusal(path: string, options: ReadLayerOptions = {}): Promise<string> {
  const error = await rejection(() => collect(readLayer(path, options)));
  expect(error).toBeInstanceOf(LayerReadError);
  return (error as Error).message;
}

const point = (properties: Record<string, unknown>, coordinates: unknown = [-97, 30]) =>
  JSON.stringify({ type: 'Feature', properties, geometry: { type: 'Point', coordinates } });
const collection = (...features: string[]) => `{"type":"FeatureCollection","features":[\n${features.join(',\n')}\n]}\n`;

describe('import limits', () => {
  let files: TempDir;
  beforeAll(async () => {
    files = await makeTempDir();
  });
  afterAll(() => files?.remove());

  it('refuses a feature past LAYER_MAX_FEATURES, naming it and the setting', async () => {
    const message = await refusal(fixture('counties.geojson'), { limits: { maxFeatures: 100 } });
    expect(message).toMatch(/counties\.geojson: feature 101 \(line \d+\): the file holds more than 100 features, more than LAYER_MAX_FEATURES \(100\); raise LAYER_MAX_FEATURES/);
    expect(await collect(readLayer(fixture('counties.geojson'), { limits: { maxFeatures: COUNTIES } }))).toHaveLength(COUNTIES);
  });

  it('refuses an attribute value past LAYER_MAX_ATTRIBUTE_BYTES (64 KiB by default), naming the attribute', async () => {
    const big = await files.write('big.geojson', collection(point({ name: 'ok' }), point({ name: 'x'.repeat(10 * 2 ** 20) })));
    expect(await refusal(big)).toBe(
      `${big}: feature 2 (line 3): attribute "name" holds at least 10,485,760 bytes, more than LAYER_MAX_ATTRIBUTE_BYTES (65,536); raise LAYER_MAX_ATTRIBUTE_BYTES if the file is genuine`,
    );
    // Multi-byte text is measured in UTF-8 bytes, not characters.
    const wide = await files.write('wide.geojson', collection(point({ name: 'é'.repeat(40_000) })));
    expect(await refusal(wide)).toContain('attribute "name" holds 80,000 bytes, more than LAYER_MAX_ATTRIBUTE_BYTES (65,536)');
    expect(await collect(readLayer(wide, { limits: { maxAttributeBytes: 80_000 } }))).toHaveLength(1);
  });

  it('refuses a geometry past LAYER_MAX_VERTICES', async () => {
    expect(await refusal(fixture('counties.fgb'), { limits: { maxVertices: 20 } })).toMatch(
      /counties\.fgb: feature 1: its geometry has more than 20 positions, more than LAYER_MAX_VERTICES \(20\)/,
    );
  });

  it('refuses coordinates nested 100,000 deep by LAYER_MAX_DEPTH, without overflowing the stack', async () => {
    const depth = 100_000;
    const deep = await files.write('deep.geojson', collection(`{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":${'['.repeat(depth)}0${']'.repeat(depth)}}}`));
    expect(await refusal(deep)).toBe(`${deep}: feature 1 (line 2): the feature's JSON nests more than LAYER_MAX_DEPTH (32) levels deep; raise LAYER_MAX_DEPTH if the file is genuine`);
    const ndjson = await files.write('deep.ndjson', `${point({ nested: JSON.parse(`${'['.repeat(40)}1${']'.repeat(40)}`) })}\n`);
    expect(await refusal(ndjson)).toContain('nests more than LAYER_MAX_DEPTH (32) levels deep');
    // Nested deep further along a geometry: its shape check refuses it, with a preview that fits.
    const late = await files.write(
      'late.geojson',
      collection(`{"type":"Feature","properties":{},"geometry":{"type":"MultiPoint","coordinates":[[-97,30],${'['.repeat(depth)}0${']'.repeat(depth)}]}}`),
    );
    expect(await refusal(late)).toContain('feature 1 (line 2)');
  });

  it('refuses a zip bomb from its central directory, before inflating it', async () => {
    expect(await refusal(refused('zip-bomb.zip'))).toMatch(
      /zip-bomb\.zip: bomb\.shp expands [\d,]+ compressed bytes into 200,000,000 \([\d,]+:1, a zip bomb\?\), more than LAYER_MAX_ZIP_RATIO \(200\); raise LAYER_MAX_ZIP_RATIO/,
    );
  });

  it('refuses what inflates past LAYER_MAX_ZIP_BYTES, declared or counted', async () => {
    expect(await refusal(fixture('counties.zip'), { limits: { maxZipBytes: 50_000 } })).toMatch(
      /counties\.zip: inflating counties\.(shp|dbf) brings what the zip expands to past [\d,]+ bytes, more than LAYER_MAX_ZIP_BYTES \(50,000\)/,
    );
    // The inflated bytes are counted too, whatever the headers say.
    const zip = await openZipArchive(fixture('counties.kmz'), { maxZipBytes: Number.MAX_SAFE_INTEGER, maxZipRatio: 1_000 });
    try {
      expect(zip.entries.length).toBeGreaterThan(0);
    } finally {
      zip.close();
    }
  });

  it('reads every fixture within the default limits', async () => {
    for (const name of ['counties.zip', 'counties.kmz', 'layers.gdb.zip', 'plants.xlsx', 'counties.geojson']) {
      const options: ReadLayerOptions = name === 'layers.gdb.zip' ? { layer: 'counties' } : {};
      expect((await collect(readLayer(fixture(name), options))).length, name).toBeGreaterThan(0);
    }
  });
});

describe('refused files', () => {
  it('refuses a .dbf with more records than the .shp', async () => {
    expect(await refusal(refused('dbf-mismatch.zip'))).toBe(
      `${refused('dbf-mismatch.zip')}: the .dbf holds 254 records but the .shp 50 shapes; the two files do not belong together (take both from the same download)`,
    );
  });

  it('refuses a projected Shapefile zipped without its .prj, and the process lives on', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      expect(await refusal(refused('noprj-albers.zip'))).toContain('has no .prj and its coordinates');
    }
    // A stray read on a closed zip would surface as an uncaught error after the refusal.
    await new Promise((resolve) => setImmediate(resolve));
  });

  it('closes a zip while its entries stream, without a stray read on a closed file', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const zip = await openZipArchive(fixture('counties.zip'));
      const streams = await Promise.all(zip.entries.map((entry) => zip.stream(entry)));
      for (const stream of streams) stream.resume();
      await new Promise((resolve) => setImmediate(resolve));
      for (const stream of streams) stream.destroy();
      zip.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  });

  it('reads an empty FeatureCollection as no features (the importer refuses it)', async () => {
    expect(await collect(readLayer(refused('empty.geojson')))).toEqual([]);
  });
});
