// What the importer refuses, on PGlite and PostgreSQL: every import limit, broken and hostile
// files (GDAL-written where a GIS tool would write them: packages/layer-io/fixtures/refused), an
// empty layer, values of the wrong form; and the source semantics it applies (NFHL's special flood
// hazard area, --where). A refusal leaves the current version current and nothing behind.

import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { createClient, createRouterTransport, type Client } from '@connectrpc/connect';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@landscreen/db';
import { readLayer, type LayerFeature } from '@landscreen/layer-io';
import { COUNTIES, fixture } from '@landscreen/layer-io/testing';
import { catalogv1 } from '@landscreen/proto';
import { createTestPGlite, createTestPostgres, DATABASE_MODES } from '@landscreen/testing';
import { catalogDb, type CatalogDb } from '../schema.js';
import { createCatalogService } from '../service.js';
import { catalogTestDeps } from '../testing/service-deps.js';
import { layerFiles, type LayerFiles } from '../testing/layer-files.js';
import { importLayer, type ImportLayerOptions } from './import-layer.js';
import { LayerImportError } from './layer-import-error.js';

const refused = (name: string) => fixture(`refused/${name}`);
const SFHA_ZONES = ['A', 'AE', 'VE'];

async function all(file: string): Promise<LayerFeature[]> {
  const features: LayerFeature[] = [];
  for await (const feature of readLayer(file)) features.push(feature);
  return features;
}

describe.each(DATABASE_MODES)('import safety and source semantics (%s)', (mode) => {
  let database: DatabaseHandle;
  let catalog: CatalogDb;
  let files: LayerFiles;
  let client: Client<typeof catalogv1.CatalogService>;

  const state = async () => {
    const { rows } = await sql<{ versions: number; chunks: number }>`
      select (select count(*)::int from catalog.layer_versions) as versions, (select count(*)::int from catalog.layer_chunks) as chunks`.execute(database.db);
    const layers = await client.listLayers({});
    return { ...rows[0], current: layers.layers.filter((layer) => layer.current).map((layer) => [layer.source, layer.id]) };
  };
  /** Imports `options` expecting a refusal with `message`; nothing changes. */
  const refusedWith = async (options: ImportLayerOptions, message: string | RegExp) => {
    const before = await state();
    const error = await importLayer(catalog, options).then(
      () => new Error('accepted'),
      (rejected: Error) => rejected,
    );
    expect(error).toBeInstanceOf(LayerImportError);
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
    expect(await state()).toEqual(before);
  };

  beforeAll(async () => {
    database = mode === 'postgres' ? await createTestPostgres() : await createTestPGlite();
    catalog = catalogDb(database.db);
    files = await layerFiles();
    client = createClient(catalogv1.CatalogService, createRouterTransport(createCatalogService(catalogTestDeps(database.db)).routes));
    // A good version of each source the refusals aim at, which must stay current.
    await importLayer(catalog, { source: 'usgs_pad_us', file: fixture('counties.zip'), map: 'NAME=name' });
    await importLayer(catalog, { source: 'census_tiger', file: fixture('counties.geojson'), map: 'NAME=county' });
  });
  afterAll(async () => {
    await files?.remove();
    await database?.close();
  });

  it('refuses an empty FeatureCollection, which never replaces a good layer', async () => {
    await refusedWith(
      { source: 'usgs_pad_us', file: refused('empty.geojson') },
      `${refused('empty.geojson')}: the file holds no features; an empty layer cannot replace usgs_pad_us's current version`,
    );
  });

  it('refuses a .shp/.dbf record count mismatch and a projected Shapefile without its .prj', async () => {
    await refusedWith({ source: 'usgs_pad_us', file: refused('dbf-mismatch.zip') }, /the \.dbf holds 254 records but the \.shp 50 shapes/);
    await refusedWith({ source: 'usgs_pad_us', file: refused('noprj-albers.zip') }, /noprj-albers\.zip: has no \.prj and its coordinates .* add the \.prj that came with it$/);
  });

  it('refuses a zip bomb, and every limit with the setting that raises it', async () => {
    await refusedWith({ source: 'usgs_pad_us', file: refused('zip-bomb.zip') }, /bomb\.shp expands [\d,]+ compressed bytes into 200,000,000 .* LAYER_MAX_ZIP_RATIO \(200\); raise LAYER_MAX_ZIP_RATIO/);
    const file = fixture('counties.zip');
    await refusedWith({ source: 'usgs_pad_us', file, limits: { maxZipBytes: 10_000 } }, /more than LAYER_MAX_ZIP_BYTES \(10,000\); raise LAYER_MAX_ZIP_BYTES/);
    await refusedWith({ source: 'usgs_pad_us', file, limits: { maxFeatures: 200 } }, /record 201: the file holds more than 200 features, more than LAYER_MAX_FEATURES \(200\)/);
    await refusedWith({ source: 'usgs_pad_us', file, limits: { maxVertices: 10 } }, /record 1: its geometry has more than 10 positions, more than LAYER_MAX_VERTICES \(10\)/);
    await refusedWith({ source: 'usgs_pad_us', file, limits: { maxAttributeBytes: 4 } }, /record 1: attribute "(GEOID|NAME)" holds \d+ bytes, more than LAYER_MAX_ATTRIBUTE_BYTES \(4\)/);
    const big = await files.write('big.geojson', JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { NAME: 'x'.repeat(10 * 2 ** 20) }, geometry: { type: 'Point', coordinates: [-97, 30] } }] }));
    await refusedWith({ source: 'hifld_substations', file: big }, /feature 1 \(line 1\): attribute "NAME" holds at least 10,485,760 bytes, more than LAYER_MAX_ATTRIBUTE_BYTES \(65,536\)/);
    const depth = 100_000;
    const deep = await files.write('deep.geojson', `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":${'['.repeat(depth)}0${']'.repeat(depth)}}}]}`);
    await refusedWith({ source: 'hifld_substations', file: deep }, `${deep}: feature 1 (line 1): the feature's JSON nests more than LAYER_MAX_DEPTH (32) levels deep; raise LAYER_MAX_DEPTH if the file is genuine`);
  });

  it('loads only the special flood hazard area of an NFHL layer (not zone X, D or areas not included)', async () => {
    const file = refused('flood-zones.geojson');
    const source = await all(file);
    const sfha = source.filter((feature) => feature.properties.SFHA_TF === 'T');
    expect(sfha.map((feature) => feature.properties.FLD_ZONE).every((zone) => SFHA_ZONES.includes(zone as string))).toBe(true);
    const imported = await importLayer(catalog, { source: 'fema_nfhl', file });
    expect(imported.features).toBe(sfha.length);
    expect(imported.features).toBeLessThan(COUNTIES);
    // A point inside each of a few counties answers as turf says the filtered file does.
    const probes = source.filter((_, i) => i % 17 === 0).map((feature, i) => {
      const ring = (feature.geometry.coordinates as number[][][][])[0][0];
      const [lon, lat] = ring.reduce(([x, y], [px, py]) => [x + px / ring.length, y + py / ring.length], [0, 0]);
      return { lon, lat, id: `p${i}` };
    });
    const { results } = await client.evaluatePoints({ locations: probes, fields: ['within_floodplain_polygon'] });
    for (const [i, probe] of probes.entries()) {
      const inSfha = sfha.some((feature) => booleanPointInPolygon([probe.lon, probe.lat], feature.geometry as never));
      expect([probe.id, results[i].answers[0].value.value]).toEqual([probe.id, inSfha]);
    }
    // A file already cut to the floodplain (no SFHA_TF, no FLD_ZONE) loads whole.
    const cut = await files.write('cut.geojson', JSON.stringify({ type: 'FeatureCollection', features: sfha.slice(0, 3).map((feature) => ({ type: 'Feature', properties: {}, geometry: feature.geometry })) }));
    expect((await importLayer(catalog, { source: 'fema_nfhl', file: cut })).features).toBe(3);
  });

  it('refuses a 5-digit county GEOID mapped onto tract_geoid, naming the attribute and the fix', async () => {
    await refusedWith(
      { source: 'census_tiger', file: fixture('counties.geojson'), map: 'GEOID=tract_geoid,NAME=county' },
      /counties\.geojson: feature 1 \(line \d+\): tract_geoid "\d{5}" \(from the file's "GEOID"\) is not an 11-digit Census tract GEOID .*; map the attribute that holds it onto tract_geoid \(--map ATTRIBUTE=tract_geoid\)$/,
    );
  });

  it('keeps the features --where chooses, and refuses bad syntax and a filter that keeps nothing', async () => {
    const file = fixture('counties.geojson');
    const imported = await importLayer(catalog, { source: 'census_tiger', file, map: 'NAME=county', where: "NAME LIKE 'B%' AND COUNTYFP < 100" });
    const expected = (await all(file)).filter((feature) => String(feature.properties.NAME).startsWith('B') && Number(feature.properties.COUNTYFP) < 100);
    expect(expected.length).toBeGreaterThan(0);
    expect(imported.features).toBe(expected.length);
    await refusedWith({ source: 'census_tiger', file, where: "NAME = 'Travis" }, `--where "NAME = 'Travis": unclosed text at character 8 (e.g. --where "FLD_ZONE IN ('A', 'AE') AND STATUS LIKE 'ACT%'")`);
    await refusedWith(
      { source: 'census_tiger', file, where: "NAME = 'Atlantis'" },
      `${file}: the file holds no features that pass --where; an empty layer cannot replace census_tiger's current version`,
    );
  });
});
