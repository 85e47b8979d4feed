// Two paths, one answer: the Flatbush-indexed searches (and the engine's grouped evaluation on
// top of them) against a brute-force reference that measures every feature, over random layers
// of points, lines and polygons (holes and multipolygons included) and random queries.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { layerSource } from '@landscreen/field-catalog';
import { Engine, buildVectorLayer } from './engine.js';
import { rulerAt } from './geodesy.js';
import type { Geometry } from './geometry.js';
import { BruteForce } from './testing/brute-force.js';
import { ring } from './testing/shapes.js';
import { Hits, VectorLayerIndex, type FeatureInput } from './vector-index.js';
import { deriveParts } from './vector-parts.js';

const lon = fc.double({ min: -97.5, max: -96.5, noNaN: true });
const lat = fc.double({ min: 29.5, max: 30.5, noNaN: true });
const size = fc.double({ min: 0.0005, max: 0.2, noNaN: true });
const position = fc.tuple(lon, lat);

const box = fc.tuple(lon, lat, size, size).map(([x, y, w, h]) => [x, y, x + w, y + h] as const);
const polygon: fc.Arbitrary<Geometry> = fc.oneof(
  box.map((b) => ({ type: 'Polygon', coordinates: [ring(b)] }) as Geometry),
  // A box with a hole in its middle third.
  box.map(([x0, y0, x1, y1]) => {
    const [w, h] = [(x1 - x0) / 3, (y1 - y0) / 3];
    return { type: 'Polygon', coordinates: [ring([x0, y0, x1, y1]), ring([x0 + w, y0 + h, x1 - w, y1 - h])] } as Geometry;
  }),
  fc.tuple(box, box).map(([a, b]) => ({ type: 'MultiPolygon', coordinates: [[ring(a)], [ring(b)]] }) as Geometry),
  fc.tuple(position, position, position).map(([a, b, c]) => ({ type: 'Polygon', coordinates: [[a, b, c, a]] }) as Geometry),
);
// Short lines, long ones the index cuts into pieces (more than 8 segments), and lines of several
// paths, cut path by path.
const lineString: fc.Arbitrary<Geometry> = fc.oneof(
  fc
    .oneof(fc.array(position, { minLength: 2, maxLength: 24 }), fc.array(position, { minLength: 17, maxLength: 60 }))
    .map((coordinates) => ({ type: 'LineString', coordinates }) as Geometry),
  fc
    .tuple(fc.array(position, { minLength: 2, maxLength: 30 }), fc.array(position, { minLength: 2, maxLength: 12 }))
    .map((paths) => ({ type: 'MultiLineString', coordinates: paths }) as Geometry),
);
const pointGeometry: fc.Arbitrary<Geometry> = position.map((coordinates) => ({ type: 'Point', coordinates }));
const withFlag = (geometry: fc.Arbitrary<Geometry>) =>
  fc.array(fc.tuple(geometry, fc.constantFrom('flowline', 'waterbody', 'area')), { maxLength: 40 }).map((items) =>
    items.map(([g, kind]): FeatureInput => ({ geometry: g, properties: { feature_type: kind, name: kind } })),
  );
const mixedLayer = withFlag(fc.oneof(pointGeometry, lineString, polygon));
const radius = fc.double({ min: 0, max: 60_000, noNaN: true });

const NHD = layerSource('usgs_nhdplus_hr');
// Shrinking a failure over dozens of random shapes can take minutes; bound the whole run.
const bounded = (numRuns: number) => ({ numRuns, interruptAfterTimeLimit: 20_000, markInterruptAsFailure: true });

describe('VectorLayerIndex against brute force', () => {
  it('within(radius) finds exactly the features the reference finds, at the same distances', () => {
    fc.assert(
      fc.property(mixedLayer, position, radius, (features, [x, y], r) => {
        const index = VectorLayerIndex.build(NHD, 'v', features);
        const hits = new Hits();
        index.within(x, y, r, rulerAt(y), hits);
        const found = hits.ids.slice(0, hits.count).map((id, i) => [id, hits.distances[i]]).sort((a, b) => a[0] - b[0]);
        const reference = new BruteForce(features);
        const distances = reference.distances(x, y);
        expect(found).toEqual(reference.within(x, y, r).map((id) => [id, distances[id]]));
      }),
      bounded(Number(process.env.FC_RUNS ?? 300)),
    );
  });

  it('nearest (with a filter and a limit) is the reference nearest', () => {
    fc.assert(
      fc.property(mixedLayer, position, fc.option(radius, { nil: undefined }), fc.double({ min: 1, max: 50_000, noNaN: true }), (features, [x, y], limit, start) => {
        const index = VectorLayerIndex.build(NHD, 'v', features);
        const mask = index.mask({ property: 'feature_type', oneOf: ['FLOWLINE'] });
        const found = index.nearest(x, y, rulerAt(y), mask, start, limit);
        const expected = new BruteForce(features).nearest(x, y, (id) => mask[id] === 1, limit);
        expect(found === null ? null : { id: found.id, distance: found.distance }).toEqual(expected);
      }),
      bounded(Number(process.env.FC_RUNS ?? 300)),
    );
  });
});

// Layers of more than 64 entries: radius searches go through the bucket grid (bucket-grid.ts).
const largeLayer = fc
  .array(fc.oneof(pointGeometry, polygon, lineString), { minLength: 70, maxLength: 160 })
  .map((gs) => gs.map((geometry): FeatureInput => ({ geometry, properties: { feature_type: 'flowline', name: 'x' } })));

describe('VectorLayerIndex against brute force, large layers (bucket grid) and snapshots', () => {
  it('within(radius) over a large layer, over its snapshot restored and over its parts handed to another thread, finds what the reference finds', () => {
    fc.assert(
      fc.property(largeLayer, position, fc.double({ min: 0, max: 5_000, noNaN: true }), (features, [x, y], r) => {
        const index = VectorLayerIndex.build(NHD, 'v', features);
        const restored = VectorLayerIndex.restore(index.snapshot());
        // What a worker thread posts: the parts through the structured clone, the index made from them.
        const handedOver = VectorLayerIndex.fromParts(structuredClone(index.toParts()));
        const reference = new BruteForce(features);
        const distances = reference.distances(x, y);
        const expected = reference.within(x, y, r).map((id) => [id, distances[id]]);
        for (const layer of [index, restored, handedOver]) {
          const hits = new Hits();
          layer.within(x, y, r, rulerAt(y), hits);
          const found = hits.ids.slice(0, hits.count).map((id, i) => [id, hits.distances[i]!]).sort((a, b) => a[0]! - b[0]!);
          // The same features; distances equal to a micrometre (a long line is measured piece by
          // piece, so the last bits of a float may differ from the whole line's).
          expect(found.map(([id]) => id)).toEqual(expected.map(([id]) => id));
          found.forEach(([, distance], i) => expect(Math.abs(distance! - expected[i]![1]!)).toBeLessThan(1e-6));
        }
        for (const layer of [restored, handedOver]) {
          const nearest = layer.nearest(x, y, rulerAt(y), null, 0);
          expect(nearest === null ? null : { id: nearest.id, distance: nearest.distance }).toEqual(reference.nearest(x, y, () => true));
        }
      }),
      bounded(Number(process.env.FC_RUNS ?? 100)),
    );
  });
});

// Points, polygons and lines short and long (a long line is indexed in pieces).
const wholeFeatureLayer = fc
  .array(fc.oneof(pointGeometry, polygon, fc.array(position, { minLength: 2, maxLength: 5 }).map((coordinates): Geometry => ({ type: 'LineString', coordinates }))), { minLength: 0, maxLength: 160 })
  .map((gs) => gs.map((geometry): FeatureInput => ({ geometry, properties: { feature_type: 'flowline', name: 'x' } })));

describe('VectorLayerIndex from parts computed elsewhere (a worker thread)', () => {
  it('answers within, nearest, areas and geometry as the built index does, the parts having crossed a structured clone', () => {
    fc.assert(
      fc.property(wholeFeatureLayer, position, fc.double({ min: 0, max: 5_000, noNaN: true }), (features, [x, y], r) => {
        const index = VectorLayerIndex.build(NHD, 'v', features);
        const snapshot = index.snapshot();
        // What a worker hands back: the parts cloned (their buffers copied as a transfer moves them).
        const fromParts = VectorLayerIndex.fromParts(structuredClone(deriveParts(snapshot)));
        expect(fromParts.size).toBe(index.size);
        expect(fromParts.spacingM).toBe(index.spacingM);
        const reference = new BruteForce(features);
        const expected = reference.within(x, y, r);
        const hits = new Hits();
        fromParts.within(x, y, r, rulerAt(y), hits);
        expect(hits.ids.slice(0, hits.count).sort((a, b) => a - b)).toEqual(expected);
        const nearest = fromParts.nearest(x, y, rulerAt(y), null, 0);
        expect(nearest === null ? null : { id: nearest.id, distance: nearest.distance }).toEqual(reference.nearest(x, y, () => true));
        for (let id = 0; id < index.size; id++) {
          expect(fromParts.areaM2(id)).toBe(index.areaM2(id));
          expect(fromParts.polygonGeometry(id)).toEqual(index.polygonGeometry(id));
          expect(fromParts.shape(id)).toEqual(index.shape(id));
        }
        expect(fromParts.searchBox(x - 0.1, y - 0.1, x + 0.1, y + 0.1)).toEqual(index.searchBox(x - 0.1, y - 0.1, x + 0.1, y + 0.1));
      }),
      bounded(Number(process.env.FC_RUNS ?? 100)),
    );
  });
});

describe('Engine against brute force', () => {
  it('wetland distance (500 m limit), counts within 100 m and 500 m and containment agree', () => {
    const wetlands = fc.array(polygon, { maxLength: 40 }).map((gs) => gs.map((geometry): FeatureInput => ({ geometry, properties: {} })));
    fc.assert(
      fc.property(wetlands, fc.array(position, { minLength: 1, maxLength: 20 }), (features, points) => {
        const engine = new Engine();
        engine.load(buildVectorLayer('usfws_nwi', 'v', features));
        const fields = ['nearest_wetland_distance_m', 'wetlands_within_100m_count', 'wetlands_within_500m_count', 'intersects_wetland'];
        const answer = engine.evaluate(points.map(([x, y]) => ({ lon: x, lat: y })), fields);
        const reference = new BruteForce(features);
        points.forEach(([x, y], i) => {
          const nearest = reference.nearest(x, y, () => true, 500);
          expect(answer.record(i).values).toEqual({
            nearest_wetland_distance_m: nearest?.distance ?? null,
            wetlands_within_100m_count: reference.within(x, y, 100).length,
            wetlands_within_500m_count: reference.within(x, y, 500).length,
            intersects_wetland: reference.within(x, y, 0).length > 0,
          });
        });
      }),
      bounded(150),
    );
  });
});
