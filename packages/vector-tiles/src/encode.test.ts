// The tile writer against vt-pbf, the serialiser geojson-vt's tiles are written with: any features
// (points, lines, polygons with holes, ids, string, integer, negative, fractional and boolean
// properties) decode (@mapbox/vector-tile) to the same layers, features, properties and geometry.

import { VectorTile } from '@mapbox/vector-tile';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { PbfReader } from 'pbf';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeTile, type TileFeature } from './encode.js';
import { LINE, POINT, POLYGON } from './tile-geometry.js';

const coordinate = fc.integer({ min: -64, max: 4160 });
const path = (min: number) => fc.array(fc.tuple(coordinate, coordinate), { minLength: min, maxLength: 8 }).map((points) => points.flat());
const geometry = fc.oneof(
  path(1).map((flat) => ({ type: POINT as 1, paths: [flat] })),
  fc.array(path(2), { minLength: 1, maxLength: 3 }).map((paths) => ({ type: LINE as 2, paths })),
  // Rings never repeat their first point at the end (tile-geometry.ts drops it).
  fc.array(path(3).filter((flat) => flat[0] !== flat.at(-2) || flat[1] !== flat.at(-1)), { minLength: 1, maxLength: 3 }).map((paths) => ({ type: POLYGON as 3, paths })),
);
const value = fc.oneof(fc.string({ maxLength: 12 }), fc.integer({ min: -1e6, max: 1e6 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }), fc.boolean());
const feature: fc.Arbitrary<TileFeature> = fc.record({
  id: fc.option(fc.nat({ max: 1e6 }), { nil: undefined }),
  geometry,
  properties: fc.dictionary(fc.constantFrom('parcel_key', 'verdict', 'score', 'name', 'voltage_kv'), value),
});

/** What a client reads of a tile: per layer, each feature's id, type, properties and geometry. */
function decoded(bytes: Uint8Array) {
  const tile = new VectorTile(new PbfReader(bytes));
  return Object.fromEntries(
    Object.entries(tile.layers).map(([name, layer]) => [
      name,
      {
        extent: layer.extent,
        features: Array.from({ length: layer.length }, (_, i) => {
          const f = layer.feature(i);
          return { id: f.id, type: f.type, properties: f.properties, geometry: f.loadGeometry().map((ring) => ring.map((p) => [p.x, p.y])) };
        }),
      },
    ]),
  );
}

/** The same features as geojson-vt hands them to vt-pbf. */
const asGeojsonVt = (features: TileFeature[]) => ({
  features: features.map((f) => {
    const pairs = f.geometry.paths.map((flat) => Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i], flat[2 * i + 1]]));
    return { type: f.geometry.type, geometry: f.geometry.type === 1 ? pairs[0] : pairs, tags: f.properties, ...(f.id !== undefined && { id: f.id }) };
  }),
});

describe('encodeTile', () => {
  it('decodes as vt-pbf\'s tile of the same features does', () => {
    fc.assert(
      fc.property(fc.array(feature, { maxLength: 12 }), fc.array(feature, { maxLength: 4 }), (parcels, lines) => {
        const ours = encodeTile([{ name: 'parcels', features: parcels }, { name: 'lines', features: lines }]);
        const theirs = fromGeojsonVt({ parcels: asGeojsonVt(parcels), lines: asGeojsonVt(lines) } as never, { version: 2, extent: 4096 });
        expect(decoded(ours)).toEqual(decoded(theirs));
      }),
      { numRuns: 300 },
    );
  });
});
