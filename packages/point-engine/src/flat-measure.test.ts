// The index measures each feature in place in the layer's flat arrays, by position (no shape object
// per feature). Against the reference that packs every feature on its own and measures it whole:
// mixed kinds (multipoints, lines long enough to be cut in pieces, polygons with holes,
// multipolygons), near the antimeridian too, the nearest feature's distance *and* its nearest point.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { layerSource } from '@landscreen/field-catalog';
import { rulerAt } from './geodesy.js';
import { measure, packGeometry, type Geometry } from './geometry.js';
import { ring } from './testing/shapes.js';
import { Hits, VectorLayerIndex, type FeatureInput } from './vector-index.js';

const NHD = layerSource('usgs_nhdplus_hr');

/** A layer around `centre` (lon), within ±0.5°: at ±179.6 its shapes and queries straddle the antimeridian. */
function layerAround(centre: number) {
  const lon = fc.double({ min: -0.4, max: 0.4, noNaN: true }).map((d) => {
    const x = centre + d;
    return x > 180 ? x - 360 : x < -180 ? x + 360 : x;
  });
  const lat = fc.double({ min: 44.5, max: 45.5, noNaN: true });
  const position = fc.tuple(lon, lat);
  const box = fc.tuple(fc.double({ min: -0.4, max: 0.35, noNaN: true }), lat, fc.double({ min: 0.001, max: 0.05, noNaN: true })).map(([d, y, s]) => {
    const x = Math.max(-180, Math.min(180 - s, centre + d));
    return [x, y, x + s, y + s] as const;
  });
  const geometry: fc.Arbitrary<Geometry> = fc.oneof(
    position.map((coordinates) => ({ type: 'Point', coordinates }) as Geometry),
    fc.array(position, { minLength: 1, maxLength: 6 }).map((coordinates) => ({ type: 'MultiPoint', coordinates }) as Geometry),
    fc.array(position, { minLength: 2, maxLength: 30 }).map((coordinates) => ({ type: 'LineString', coordinates }) as Geometry),
    fc.tuple(fc.array(position, { minLength: 2, maxLength: 20 }), fc.array(position, { minLength: 1, maxLength: 12 })).map((paths) => ({ type: 'MultiLineString', coordinates: paths }) as Geometry),
    box.map(([x0, y0, x1, y1]) => {
      const [w, h] = [(x1 - x0) / 4, (y1 - y0) / 4];
      return { type: 'Polygon', coordinates: [ring([x0, y0, x1, y1]), ring([x0 + w, y0 + h, x1 - w, y1 - h])] } as Geometry;
    }),
    fc.tuple(box, box).map(([a, b]) => ({ type: 'MultiPolygon', coordinates: [[ring(a)], [ring(b)]] }) as Geometry),
  );
  const features = fc.array(geometry, { minLength: 1, maxLength: 90 }).map((gs) => gs.map((g): FeatureInput => ({ geometry: g, properties: { feature_type: 'flowline' } })));
  return { features, position };
}

const bounded = (numRuns: number) => ({ numRuns, interruptAfterTimeLimit: 20_000, markInterruptAsFailure: true });

describe('features measured in place in the flat arrays', () => {
  for (const [label, centre] of [
    ['mid-continent', -97],
    ['across the antimeridian', 179.8],
  ] as const) {
    it(`within and nearest agree with each feature packed and measured whole (${label})`, () => {
      const { features, position } = layerAround(centre);
      fc.assert(
        fc.property(features, position, fc.double({ min: 0, max: 30_000, noNaN: true }), (layer, [x, y], r) => {
          const index = VectorLayerIndex.build(NHD, 'v', layer);
          const ruler = rulerAt(y);
          const whole = layer.map((f) => measure(packGeometry(f.geometry), x, y, ruler, { distance: 0, lon: 0, lat: 0 }));
          const hits = new Hits();
          index.within(x, y, r, ruler, hits);
          const found = new Map(hits.ids.slice(0, hits.count).map((id, i) => [id, hits.distances[i]!]));
          whole.forEach((m, id) => {
            // A long line is measured piece by piece: equal to the whole line's to a micrometre.
            if (m.distance <= r - 1e-6) expect(Math.abs(found.get(id)! - m.distance)).toBeLessThan(1e-6);
            if (m.distance > r + 1e-6) expect(found.has(id)).toBe(false);
          });
          const nearest = index.nearest(x, y, ruler, null);
          const best = Math.min(...whole.map((m) => m.distance));
          expect(nearest).not.toBeNull();
          expect(Math.abs(nearest!.distance - best)).toBeLessThan(1e-6);
          // Its nearest point is the feature's own, as measured whole (the same side of the antimeridian).
          const own = whole[nearest!.id]!;
          expect(Math.abs(nearest!.distance - own.distance)).toBeLessThan(1e-6);
          if (own.distance > 0) {
            expect(Math.abs(nearest!.lon - own.lon)).toBeLessThan(1e-9);
            expect(Math.abs(nearest!.lat - own.lat)).toBeLessThan(1e-9);
          }
        }),
        bounded(Number(process.env.FC_RUNS ?? 150)),
      );
    });
  }
});
