// Every format publishers ship, read from files GDAL wrote (fixtures/), agrees with the same data
// read from the GeoJSON GDAL wrote beside them: the same count, the same attributes, the same
// coordinates within 1e-9 degrees (a projected copy within 1e-7: proj4 here, PROJ there).

import { describe, expect, it } from 'vitest';
import type { GeoJSONGeometry } from '@landscreen/parcel-io';
import { readLayer } from './read-layer.js';
import { nativeGdalAvailable } from './readers/gdal/native-gdal.js';
import { collect } from './testing/temp-dir.js';
import { COUNTIES, PLANTS, fixture } from './testing/fixtures.js';
import type { LayerFeature, ReadLayerOptions } from './types.js';

type Normalise = (properties: Record<string, unknown>) => Record<string, unknown>;

/** FileGDB field names cannot hold spaces or brackets: GDAL launders them when it writes one. */
const laundered: Normalise = (properties) => Object.fromEntries(Object.entries(properties).map(([key, value]) => [key.replace(/[^A-Za-z0-9_]/g, '_'), value]));
/** GDAL's KML writers put a NAME attribute in the placemark's <name>, which reads back as "name". */
const kmlName: Normalise = (properties) => {
  const { name, ...rest } = properties;
  return name === undefined ? properties : { NAME: name, ...rest };
};
/** KML carries every attribute as text. */
const asText: Normalise = (properties) => Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, value === null ? null : String(value)]));

interface Case {
  name: string;
  file: string;
  options?: ReadLayerOptions;
  reference: 'counties' | 'plants';
  expected?: Normalise;
  actual?: Normalise;
  tolerance?: number;
}

const CASES: Case[] = [
  { name: 'GeoPackage, layer counties', file: 'layers.gpkg', options: { layer: 'counties' }, reference: 'counties' },
  { name: 'GeoPackage, layer plants', file: 'layers.gpkg', options: { layer: 'PLANTS' }, reference: 'plants' },
  { name: 'GeoPackage in EPSG:5070', file: 'counties-albers.gpkg', reference: 'counties', tolerance: 1e-7 },
  { name: 'FileGDB folder, gdal3.js', file: 'layers.gdb', options: { layer: 'counties', gdal: 'wasm' }, reference: 'counties' },
  { name: 'FileGDB zip, plants, gdal3.js', file: 'layers.gdb.zip', options: { layer: 'plants', gdal: 'wasm' }, reference: 'plants', expected: laundered },
  ...(nativeGdalAvailable()
    ? [
        { name: 'FileGDB zip, gdal-bin', file: 'layers.gdb.zip', options: { layer: 'counties', gdal: 'native' }, reference: 'counties' } as Case,
        { name: 'FileGDB folder, plants, gdal-bin', file: 'layers.gdb', options: { layer: 'plants', gdal: 'native' }, reference: 'plants', expected: laundered } as Case,
      ]
    : []),
  { name: 'FlatGeobuf', file: 'counties.fgb', reference: 'counties' },
  { name: 'KMZ', file: 'counties.kmz', reference: 'counties', expected: asText, actual: (p) => asText(kmlName(p)) },
  { name: 'KML', file: 'plants.kml', reference: 'plants', expected: asText, actual: asText },
  { name: 'XLSX with a title row, header found', file: 'plants.xlsx', reference: 'plants' },
  { name: 'XLSX, --sheet and --header-row', file: 'plants.xlsx', options: { sheet: 'plant', headerRow: 2 }, reference: 'plants' },
  { name: 'zipped Shapefile', file: 'counties.zip', reference: 'counties' },
];

const KEYS = { counties: 'GEOID', plants: 'Plant Code' } as const;
const keyOf = (properties: Record<string, unknown>, key: string): string => String(properties[key] ?? properties[key.replaceAll(' ', '_')]);

const references = {
  counties: collect(readLayer(fixture('counties.geojson'))),
  plants: collect(readLayer(fixture('plants.geojson'))),
};

describe('formats publishers ship, against the GeoJSON GDAL wrote of the same data', () => {
  it('reads the references whole', async () => {
    expect((await references.counties).length).toBe(COUNTIES);
    expect((await references.plants).length).toBe(PLANTS);
  });

  it.each(CASES)('$name', async ({ file, options, reference, expected = (p) => p, actual = (p) => p, tolerance = 1e-9 }) => {
    const want = await references[reference];
    const got = await collect(readLayer(fixture(file), options));
    expect(got.length).toBe(want.length);
    // Matched by key, not by position: a FlatGeobuf with a spatial index is in Hilbert order.
    const key = KEYS[reference];
    const byKey = new Map(got.map((feature) => [keyOf(actual(feature.properties), key), feature]));
    let worst = 0;
    for (const wantedFeature of want) {
      const wanted = expected(wantedFeature.properties);
      const id = keyOf(wanted, key);
      const gotFeature = byKey.get(id);
      expect(gotFeature, `${key} ${id}`).toBeDefined();
      const read = actual(gotFeature!.properties);
      for (const name of Object.keys(wanted)) expect([id, name, read[name]]).toEqual([id, name, wanted[name]]);
      worst = Math.max(worst, largestDifference(gotFeature!, wantedFeature));
    }
    expect(worst).toBeLessThanOrEqual(tolerance);
  });
});

/** The largest coordinate difference, single polygons taken as one-part multipolygons. */
function largestDifference(a: LayerFeature, b: LayerFeature): number {
  const left = positions(a.geometry);
  const right = positions(b.geometry);
  expect([a.position.index, a.geometry.type.replace('Multi', ''), left.length]).toEqual([a.position.index, b.geometry.type.replace('Multi', ''), right.length]);
  let worst = 0;
  for (let i = 0; i < left.length; i++) worst = Math.max(worst, Math.abs(left[i][0] - right[i][0]), Math.abs(left[i][1] - right[i][1]));
  return worst;
}

function positions(geometry: GeoJSONGeometry): number[][] {
  switch (geometry.type) {
    case 'Point':
      return [geometry.coordinates];
    case 'MultiPoint':
    case 'LineString':
      return geometry.coordinates;
    case 'MultiLineString':
    case 'Polygon':
      return geometry.coordinates.flat();
    case 'MultiPolygon':
      return geometry.coordinates.flat(2);
  }
}
