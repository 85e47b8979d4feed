// Layers in the formats publishers ship, imported on PGlite and PostgreSQL and answered by the
// engine, checked against independent computations over the same data read from the GeoJSON GDAL
// wrote: turf's point-in-polygon for the county containing random points, and the haversine
// distance to the nearest plant.

import { createClient, createRouterTransport, type Client } from '@connectrpc/connect';
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@landscreen/db';
import { readLayer, type LayerFeature } from '@landscreen/layer-io';
import { COUNTIES, PLANTS, fixture, haversineMetres } from '@landscreen/layer-io/testing';
import { catalogv1 } from '@landscreen/proto';
import { createTestPGlite, createTestPostgres, DATABASE_MODES } from '@landscreen/testing';
import { catalogDb, type CatalogDb } from '../schema.js';
import { createCatalogService } from '../service.js';
import { catalogTestDeps } from '../testing/service-deps.js';
import { importLayer } from './import-layer.js';

/** Texas's bounding box, a little beyond it: some points fall outside every county. */
const TEXAS = { west: -106.8, east: -93.4, south: 25.7, north: 36.7 };
const POINTS = 150;

const COUNTY_FILES = [
  { format: 'gpkg', file: 'layers.gpkg', layer: 'counties', map: 'NAME=county' },
  { format: 'filegdb', file: 'layers.gdb.zip', layer: 'counties', map: 'NAME=county' },
  { format: 'flatgeobuf', file: 'counties.fgb', map: 'NAME=county' },
  // GDAL's KML writer puts the NAME attribute in each placemark's <name>.
  { format: 'kmz', file: 'counties.kmz', map: 'name=county' },
];

async function all(file: string): Promise<LayerFeature[]> {
  const features: LayerFeature[] = [];
  for await (const feature of readLayer(fixture(file))) features.push(feature);
  return features;
}

/** A fixed pseudo-random sequence (mulberry32), so a failure names points that come back. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomPoints(seed: number): { lat: number; lon: number; id: string }[] {
  const next = random(seed);
  return Array.from({ length: POINTS }, (_, i) => ({
    lon: TEXAS.west + next() * (TEXAS.east - TEXAS.west),
    lat: TEXAS.south + next() * (TEXAS.north - TEXAS.south),
    id: `p${i}`,
  }));
}

describe.each(DATABASE_MODES)('layers in publishers\' formats, imported and answered by the engine (%s)', (mode) => {
  let database: DatabaseHandle;
  let catalog: CatalogDb;
  let client: Client<typeof catalogv1.CatalogService>;
  let counties: LayerFeature[];
  let plants: LayerFeature[];

  beforeAll(async () => {
    database = mode === 'postgres' ? await createTestPostgres() : await createTestPGlite();
    catalog = catalogDb(database.db);
    client = createClient(catalogv1.CatalogService, createRouterTransport(createCatalogService(catalogTestDeps(database.db)).routes));
    counties = await all('counties.geojson');
    plants = await all('plants.geojson');
  });
  afterAll(async () => {
    await database?.close();
  });

  it.each(COUNTY_FILES)('$format: the county containing random points is the one turf finds in the GeoJSON', async ({ format, file, layer, map }) => {
    const imported = await importLayer(catalog, { source: 'census_tiger', file: fixture(file), layer, map });
    expect(imported.features).toBe(COUNTIES);
    const versions = await client.listLayers({});
    expect(versions.layers.find((version) => version.id === imported.versionId)?.format).toBe(format);

    const points = randomPoints(COUNTY_FILES.findIndex((entry) => entry.file === file) + 1);
    const { results } = await client.evaluatePoints({ locations: points, fields: ['political_county'] });
    let inside = 0;
    for (const [i, point] of points.entries()) {
      const containing = counties.filter((county) => booleanPointInPolygon([point.lon, point.lat], county.geometry as never));
      expect(containing.length, `${point.id} ${point.lon},${point.lat}`).toBeLessThanOrEqual(1);
      const answer = results[i].answers[0];
      if (containing.length === 0) {
        expect([point.id, answer.nullReason]).toEqual([point.id, 'not_inside']);
      } else {
        inside++;
        expect([point.id, answer.value.value]).toEqual([point.id, containing[0].properties.NAME]);
      }
    }
    // Texas fills about 40 % of its box: the comparison covers both answers.
    expect(inside).toBeGreaterThan(POINTS / 4);
    expect(inside).toBeLessThan(POINTS);
  });

  it('xlsx with a title row: the nearest plant and its distance are those haversine finds in the GeoJSON', async () => {
    const imported = await importLayer(catalog, {
      source: 'eia_860_power_plants',
      file: fixture('plants.xlsx'),
      map: 'Plant Name=name,Nameplate Capacity (MW)=capacity_mw',
    });
    expect(imported.features).toBe(PLANTS);
    const points = randomPoints(99).slice(0, 60);
    const { results } = await client.evaluatePoints({
      locations: points,
      fields: ['nearest_power_plant_distance_m', 'nearest_power_plant_name', 'nearest_power_plant_capacity_mw'],
    });
    for (const [i, point] of points.entries()) {
      const ranked = plants
        .map((plant) => ({ plant, metres: haversineMetres([point.lon, point.lat], plant.geometry.coordinates as number[]) }))
        .sort((a, b) => a.metres - b.metres);
      const [distance, name, capacity] = results[i].answers;
      expect(Math.abs((distance.value.value as number) - ranked[0].metres) / ranked[0].metres).toBeLessThan(0.005);
      // The name is compared only where the runner-up is clearly farther than the sphere's error.
      if (ranked[1].metres > ranked[0].metres * 1.01) {
        expect([point.id, name.value.value, capacity.value.value]).toEqual([
          point.id,
          ranked[0].plant.properties['Plant Name'],
          ranked[0].plant.properties['Nameplate Capacity (MW)'],
        ]);
      }
    }
  });
});
