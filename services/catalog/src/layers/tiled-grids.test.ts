// Grid layers of several GeoTIFF tiles written by GDAL (layer-io's fixtures/dem), stored block by
// block and answered by the engine on PGlite and PostgreSQL: the tiles' cells against the ASCII
// grid they were made from (and the surface it sampled), seams, overlaps, no data, tiles in other
// CRSs, blocks loaded on demand within the cache's budget, and every refusal leaving the current
// version current.

import { cp, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createClient, createRouterTransport, type Client } from '@connectrpc/connect';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@landscreen/db';
import {
  bilinearReference,
  demFixture,
  elevationModel,
  holeBounds,
  MOSAIC,
  readAsciiGrid,
  seededRandom,
} from '@landscreen/layer-io/testing/dem-fixtures';
import { catalogv1 } from '@landscreen/proto';
import { createTestPGlite, createTestPostgres, DATABASE_MODES } from '@landscreen/testing';
import { catalogDb, type CatalogDb } from '../schema.js';
import { createCatalogService } from '../service.js';
import { catalogTestDeps } from '../testing/service-deps.js';
import { layerFiles, type LayerFiles } from '../testing/layer-files.js';
import { encodeCells } from './chunk-codec.js';
import { importLayer, type ImportLayerOptions } from './import-layer.js';
import { LayerCache } from './layer-cache.js';

const TILES = ['dem_r0c0.tif', 'dem_r0c1.tif', 'dem_r1c0.tif', 'dem_r1c1.tif'].map((name) => demFixture('tiles', name));
const TERRAIN = ['elevation', 'slope_degrees', 'aspect_degrees'];
/** Small blocks, so that each 32 x 32 tile is 16 of them and points need some and not others. */
const BLOCK = 8;
const ascii = readAsciiGrid(demFixture('source', 'dem.asc'));
const [holeWest, holeSouth, holeEast, holeNorth] = holeBounds();

/** Random points of the mosaic away from its hole (and the cells next to it, which bilinear reads). */
function mosaicPoints(count: number, seed: number): { lon: number; lat: number }[] {
  const random = seededRandom(seed);
  const points = [];
  while (points.length < count) {
    const lon = MOSAIC.west + random() * MOSAIC.width * MOSAIC.cell;
    const lat = MOSAIC.north - random() * MOSAIC.height * MOSAIC.cell;
    const nearHole = lon > holeWest - MOSAIC.cell && lon < holeEast + MOSAIC.cell && lat > holeSouth - MOSAIC.cell && lat < holeNorth + MOSAIC.cell;
    if (!nearHole) points.push({ lon, lat });
  }
  return points;
}

describe.each(DATABASE_MODES)('grid layers of GeoTIFF tiles (%s)', (mode) => {
  let database: DatabaseHandle;
  let catalog: CatalogDb;
  let files: LayerFiles;
  let client: Client<typeof catalogv1.CatalogService>;
  const importDem = (options: Partial<ImportLayerOptions> & Pick<ImportLayerOptions, 'file'>) =>
    importLayer(catalog, { source: 'usgs_3dep', gridBlockSize: BLOCK, ...options });
  /** The service's engine (the grid small enough to be held whole). */
  const evaluate = async (points: { lon: number; lat: number }[], fields = TERRAIN) => {
    const { results } = await client.evaluatePoints({ locations: points.map(({ lon, lat }) => ({ lon, lat, id: '' })), fields });
    return results.map((result) => result.answers);
  };
  /** An engine that holds no grid whole: every block loads on demand, within `budget` bytes. */
  const onDemand = async (points: { lon: number; lat: number }[], budget = 1 << 20) => {
    const cache = new LayerCache(catalog, { wholeGridBytes: 0, gridCacheBytes: budget });
    const { engine } = await cache.current();
    return { answer: await engine.evaluateLoaded(points, TERRAIN), cache };
  };
  const currentDem = async () => (await client.listLayers({})).layers.find((layer) => layer.source === 'usgs_3dep' && layer.current);

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

  it('imports four tiles (DEFLATE and LZW, both predictors, a BigTIFF, a striped file) as one version', async () => {
    const imported = await importDem({ file: [...TILES].reverse() });
    expect(imported).toMatchObject({ geometry: 'grid', features: MOSAIC.width * MOSAIC.height });
    imported.bbox!.forEach((value, i) => expect(value).toBeCloseTo([MOSAIC.west, MOSAIC.north - 0.16, MOSAIC.west + 0.16, MOSAIC.north][i], 9));
    const listed = await currentDem();
    expect(listed).toMatchObject({ id: imported.versionId, crs: 'EPSG:4269', tiles: 4, featureCount: 4096n, fileName: '4 files: dem_r0c0.tif, dem_r0c1.tif, dem_r1c0.tif, …' });
    // 64 blocks of 8 x 8; the hole (4 x 4 cells at 48..51, 40..43) fills none of them whole.
    const { rows } = await sql<{ chunks: number }>`select count(*)::int as chunks from catalog.layer_chunks where version_id = ${imported.versionId}`.execute(catalog);
    expect(rows[0].chunks).toBe(64);
    expect(Number(listed!.storedBytes)).toBeGreaterThan(0);
    expect(listed!.engineBytes).toBe(BigInt(MOSAIC.width * MOSAIC.height * 4));
    expect(listed!.loadsOnDemand).toBe(false);
  });

  it('answers elevation in every tile and across the seams as the ASCII grid does, held whole or loaded block by block', async () => {
    const seams = [
      { lon: MOSAIC.west + 0.08 - 0.0001, lat: 30.13 },
      { lon: MOSAIC.west + 0.08 + 0.0001, lat: 30.13 },
      { lon: MOSAIC.west + 0.03, lat: 30.08 + 0.0003 },
      { lon: MOSAIC.west + 0.03, lat: 30.08 - 0.0003 },
      { lon: MOSAIC.west + 0.08 + 0.0002, lat: 30.08 - 0.0002 },
    ];
    const points = [...mosaicPoints(60, 42), ...seams];
    const whole = await evaluate(points);
    const { answer } = await onDemand(points);
    points.forEach((point, n) => {
      const expected = bilinearReference(ascii, point.lon, point.lat)!;
      expect(whole[n][0].value.value).toBeCloseTo(expected, 3);
      // The surface the grid sampled, within bilinear interpolation's error on 250 m cells (but
      // within half a cell of the mosaic's edge, where the edge cells are repeated).
      const inner = Math.min(point.lon - MOSAIC.west, MOSAIC.west + 0.16 - point.lon, point.lat - (MOSAIC.north - 0.16), MOSAIC.north - point.lat) > MOSAIC.cell / 2;
      if (inner) expect(Math.abs((whole[n][0].value.value as number) - elevationModel(point.lon, point.lat))).toBeLessThan(0.5);
      TERRAIN.forEach((field, f) => expect(answer.value(n, f)).toBeCloseTo(whole[n][f].value.value as number, 6));
    });
  });

  it('answers no data as null no_data (GDAL_NODATA), not 0, and outside every tile outside_coverage', async () => {
    const hole = { lon: (holeWest + holeEast) / 2, lat: (holeSouth + holeNorth) / 2 };
    const [inHole, outside] = await evaluate([hole, { lon: -97.5, lat: 30.1 }]);
    expect(inHole.map((answer) => [answer.value.value, answer.nullReason])).toEqual([
      [undefined, 'no_data'],
      [undefined, 'no_data'],
      [undefined, 'no_data'],
    ]);
    expect(outside[0].nullReason).toBe('outside_coverage');
    const { answer } = await onDemand([hole]);
    expect(answer.record(0).null_reasons).toEqual({ elevation: 'no_data', slope_degrees: 'no_data', aspect_degrees: 'no_data' });
  });

  it('keeps the blocks it holds within the cache budget, still answering right', async () => {
    const points = mosaicPoints(40, 7);
    const budget = 3 * BLOCK * BLOCK * 4;
    const { answer, cache } = await onDemand(points, budget);
    expect(cache.gridCache.heldBytes).toBeLessThanOrEqual(budget);
    points.forEach((point, n) => expect(answer.value(n, 0)).toBeCloseTo(bilinearReference(ascii, point.lon, point.lat)!, 3));
  });

  it('takes a folder of tiles; where tiles overlap the finer one answers, then the later in name order', async () => {
    const folder = path.join(files.dir, 'dem-set');
    await mkdir(folder, { recursive: true });
    for (const file of [...TILES, demFixture('overlap', 'a_fine.tif'), demFixture('overlap', 'z_same.tif')]) await cp(file, path.join(folder, path.basename(file)));
    const imported = await importDem({ file: folder });
    expect(imported.features).toBe(4096 + 256 + 64);
    expect((await currentDem())?.tiles).toBe(6);
    // a_fine (0.00125° cells, +100 m) is first in name order but finer; z_same (+200 m) is last at the mosaic's resolution.
    const fine = { lon: -97.98, lat: 30.14 };
    const same = { lon: -97.98, lat: 30.03 };
    const plain = { lon: -97.9, lat: 30.1 };
    const [atFine, atSame, atPlain] = await evaluate([fine, same, plain], ['elevation']);
    expect((atFine[0].value.value as number) - elevationModel(fine.lon, fine.lat)).toBeCloseTo(100, 0);
    expect((atSame[0].value.value as number) - elevationModel(same.lon, same.lat)).toBeCloseTo(200, 0);
    expect(atPlain[0].value.value).toBeCloseTo(bilinearReference(ascii, plain.lon, plain.lat)!, 3);
  });

  it('takes tiles in other CRSs (UTM zone 14N, CONUS Albers) into one version, each located through its own', async () => {
    const imported = await importDem({ file: [demFixture('utm', 'dem_utm14.tif'), demFixture('albers', 'dem_albers.tif')] });
    expect((await currentDem())?.crs).toBe('EPSG:5070, EPSG:26914');
    const random = seededRandom(3);
    const points = Array.from({ length: 30 }, () => ({ lon: -97.92 + (random() - 0.5) * 0.035, lat: 30.08 + (random() - 0.5) * 0.03 }));
    const answers = await evaluate(points, ['elevation']);
    // 100 m cells sampled from the surface: bilinear is within a few centimetres of it.
    points.forEach((point, n) => expect(Math.abs((answers[n][0].value.value as number) - elevationModel(point.lon, point.lat))).toBeLessThan(0.1));
    expect(answers[0][0].provenance?.layers[0].layerVersionId).toBe(imported.versionId);
  });

  it('answers no_data where a partial (sparse) file has no bytes for a block', async () => {
    await importDem({ file: demFixture('partial', 'sparse.tif') });
    // The missing block: columns 16-31, rows 0-15 of 0.0025° cells from 98°W 30.16°N.
    const [missing, present] = await evaluate(
      [
        { lon: -98 + 24 * 0.0025, lat: 30.16 - 8 * 0.0025 },
        { lon: -98 + 8 * 0.0025, lat: 30.16 - 24 * 0.0025 },
      ],
      ['elevation'],
    );
    expect(missing[0].nullReason).toBe('no_data');
    expect(present[0].value.value).toBeCloseTo(elevationModel(-98 + 8 * 0.0025, 30.16 - 24 * 0.0025), 0);
  });

  describe('refusals leave the current version current', () => {
    let current: string;
    beforeAll(async () => {
      current = (await importDem({ file: TILES })).versionId;
    });
    const refused = async (options: Partial<ImportLayerOptions> & Pick<ImportLayerOptions, 'file'>, message: string | RegExp) => {
      await expect(importDem(options)).rejects.toThrow(message);
      expect((await currentDem())?.id).toBe(current);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from catalog.layer_versions where source = 'usgs_3dep' and seq > (select seq from catalog.layer_versions where id = ${current})`.execute(catalog);
      expect(rows[0].n).toBe(0);
    };

    it('a truncated tile among good ones', async () => {
      const truncated = demFixture('refused', 'truncated.tif');
      await refused({ file: [...TILES, truncated] }, new RegExp(`^${truncated}: the file is truncated: tile \\d+ of 16 ends at byte`));
    });

    it('a raster without cells', async () => {
      await refused({ file: demFixture('refused', 'empty.tif') }, 'the GeoTIFF holds no cells (0 × 0)');
    });

    it('a header claiming more cells than LAYER_MAX_CELLS, and tiles holding more together', async () => {
      await refused({ file: demFixture('refused', 'huge-header.tif'), maxCells: 100_000_000 }, /huge-header\.tif: its header claims 16,384 × 16,384 = 268,435,456 cells, more than LAYER_MAX_CELLS \(100,000,000\)/);
      await refused({ file: TILES, maxCells: 3_000 }, 'the 4 files hold 4,096 cells together, more than LAYER_MAX_CELLS (3,000); raise LAYER_MAX_CELLS, or import fewer tiles');
    });

    it('three bands, a CRS spelt out in geokeys, a GeoJSON among the tiles, a missing file', async () => {
      await refused({ file: demFixture('refused', 'rgb.tif') }, 'rgb.tif: the GeoTIFF has 3 bands; a grid layer needs a single band (gdal_translate -b 1 keeps the first)');
      await refused({ file: demFixture('refused', 'custom-crs.tif') }, 'custom-crs.tif: its ProjectedCSTypeGeoKey is user-defined (32767), not an EPSG code');
      const geojson = await files.write('points.geojson', '{"type":"FeatureCollection","features":[]}');
      await refused({ file: [TILES[0], geojson] }, `${geojson}: usgs_3dep is a grid source: it loads a single-band GeoTIFF, not geojson`);
      await refused({ file: [TILES[0], path.join(files.dir, 'absent.tif')] }, `${path.join(files.dir, 'absent.tif')}: no such file`);
    });
  });

  it('still answers a grid stored whole (one raster, row-major chunks, no tiles)', async () => {
    const values = Float32Array.from([100, 101, 102, 110, 111, 112, 120, 121, 122]);
    const meta = { width: 3, height: 3, noData: null, crs: { label: 'EPSG:4326', definition: 'EPSG:4326' }, geoTransform: [-96.03, 0.01, 0, 36.03, 0, -0.01] };
    await catalog.transaction().execute(async (trx) => {
      const { rows } = await sql<{ id: string }>`
        insert into catalog.layer_versions (seq, source, name, format, file_name, crs, geometry, feature_count, bbox, grid)
        values (nextval('catalog.layer_version_seq'), 'usgs_3dep', 'old', 'geotiff', 'old.tif', 'EPSG:4326', 'grid', 9,
                ${JSON.stringify([-96.03, 36, -96, 36.03])}::jsonb, ${JSON.stringify(meta)}::jsonb)
        returning id`.execute(trx);
      await sql`insert into catalog.layer_chunks (version_id, chunk_no, data) values (${rows[0].id}, 0, ${encodeCells(values, 0, 9)})`.execute(trx);
    });
    const [[centre]] = await evaluate([{ lon: -96.015, lat: 36.015 }], ['elevation']);
    expect(centre.value.value).toBeCloseTo(111, 4);
    expect((await currentDem())).toMatchObject({ tiles: 1, engineBytes: 36n, loadsOnDemand: false });
  });
});
