import { createClient, createRouterTransport, type Client } from '@connectrpc/connect';
import { writeArrayBuffer } from 'geotiff';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@landscreen/db';
import { catalogv1 } from '@landscreen/proto';
import { createTestPGlite, createTestPostgres, DATABASE_MODES } from '@landscreen/testing';
import { catalogDb, type CatalogDb } from '../schema.js';
import { createCatalogService } from '../service.js';
import { catalogTestDeps } from '../testing/service-deps.js';
import { layerFiles, type LayerFiles } from '../testing/layer-files.js';
import { importLayer } from './import-layer.js';

type Metadata = Parameters<typeof writeArrayBuffer>[1];

// UTM northing of 30°N on a zone's central meridian (0.9996 × the GRS80 meridian arc), so that
// 30°N 99°W (zone 14's central meridian, easting 500,000 m) falls in a known cell.
const NORTHING_30N = 3_318_785.353;

describe.each(DATABASE_MODES)('grid layers from GeoTIFFs (%s)', (mode) => {
  let database: DatabaseHandle;
  let files: LayerFiles;
  let client: Client<typeof catalogv1.CatalogService>;
  /** The service's view of the database, as the service makes it: what the layer functions take. */
  let catalog: CatalogDb;
  const writeTiff = (name: string, values: number[], metadata: Metadata) =>
    files.write(name, new Uint8Array(writeArrayBuffer(Float32Array.from(values), metadata)));
  const elevationAt = async (lon: number, lat: number) => {
    const { results } = await client.evaluatePoints({ locations: [{ lat, lon, id: '' }], fields: ['elevation'] });
    return results[0].answers[0];
  };

  beforeAll(async () => {
    database = mode === 'postgres' ? await createTestPostgres() : await createTestPGlite();
    catalog = catalogDb(database.db);
    files = await layerFiles();
    client = createClient(catalogv1.CatalogService, createRouterTransport(createCatalogService(catalogTestDeps(database.db)).routes));
  });
  afterAll(async () => {
    await files?.remove();
    await database?.close();
  });

  it('answers elevation from a WGS84 grid: a cell centre is its own value, halfway between two is their mean', async () => {
    // 3 x 3 cells of 0.01°, north-up, from 35.03°N 97.03°W.
    const file = await writeTiff('dem.tif', [100, 101, 102, 110, 111, 112, 120, 121, 122], {
      width: 3,
      height: 3,
      ModelPixelScale: [0.01, 0.01, 0],
      ModelTiepoint: [0, 0, 0, -97.03, 35.03, 0],
      GTModelTypeGeoKey: 2,
      GTRasterTypeGeoKey: 1,
      GeographicTypeGeoKey: 4326,
    });
    const imported = await importLayer(catalog, { source: 'usgs_3dep', file });
    expect(imported).toMatchObject({ geometry: 'grid', features: 9 });
    const centre = await elevationAt(-97.015, 35.015);
    expect(centre.value.value).toBeCloseTo(111, 4);
    expect(centre.provenance?.layers[0].layerVersionId).toBe(imported.versionId);
    expect((await elevationAt(-97.01, 35.015)).value.value).toBeCloseTo(111.5, 4);
    expect((await elevationAt(-96, 35)).nullReason).toBe('outside_coverage');
  });

  it('answers from a grid in a projected CRS (UTM zone 14N geokeys), nodata next to the point falling back to its cell', async () => {
    const file = await writeTiff('utm.tif', [100, 101, 102, 103, 110, 111, 112.5, -9999, 120, 121, 122, 123], {
      width: 4,
      height: 3,
      ModelPixelScale: [30, 30, 0],
      ModelTiepoint: [0, 0, 0, 500_000 - 2 * 30 - 10, NORTHING_30N + 30 + 10, 0],
      GTModelTypeGeoKey: 1,
      GTRasterTypeGeoKey: 1,
      ProjectedCSTypeGeoKey: 26914,
      GDAL_NODATA: '-9999',
    });
    const imported = await importLayer(catalog, { source: 'usgs_3dep', file });
    const { layers } = await client.listLayers({});
    expect(layers.find((layer) => layer.id === imported.versionId)).toMatchObject({ crs: 'EPSG:26914', featureCount: 12n, current: true });
    // 30°N 99°W is 5 m west and 5 m north of cell (2, 1)'s centre: bilinear between cells (1..2, 0..1)
    // at 5/6 of the way in each direction: 101 + 5/6·1 and 111 + 5/6·1.5, then 5/6 between them.
    expect((await elevationAt(-99, 30)).value.value).toBeCloseTo(101 + 5 / 6 + (5 / 6) * (111 + 1.25 - 101 - 5 / 6), 3);
    // 10 m further east (about 10 / 96,486 degrees here), its east neighbour is nodata: the cell's own value.
    expect((await elevationAt(-99 + 10 / 96_486, 30)).value.value).toBeCloseTo(112.5, 4);
    expect((await elevationAt(-98.99, 30)).nullReason).toBe('outside_coverage');
  });

  it('refuses a GeoTIFF for a vector source and features for a grid source', async () => {
    const tiff = await writeTiff('small.tif', [1], {
      width: 1,
      height: 1,
      ModelPixelScale: [1, 1, 0],
      ModelTiepoint: [0, 0, 0, -97, 35, 0],
      GTModelTypeGeoKey: 2,
      GeographicTypeGeoKey: 4326,
    });
    await expect(importLayer(catalog, { source: 'hifld_substations', file: tiff })).rejects.toThrow(
      'hifld_substations is a points source: a GeoTIFF grid cannot feed it',
    );
    const geojson = await files.write('points.geojson', '{"type":"FeatureCollection","features":[]}');
    await expect(importLayer(catalog, { source: 'usgs_3dep', file: geojson })).rejects.toThrow(
      'usgs_3dep is a grid source: it loads a single-band GeoTIFF, not geojson',
    );
  });
});
