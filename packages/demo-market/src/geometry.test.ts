import { describe, expect, it } from 'vitest';
import { DEMO_CENTER } from './geo.js';
import { generateDemoParcels } from './generate.js';

// Geometry is checked with methods independent of the generator's: acreage against the
// spherical excess of the polygon with great-circle edges (L'Huilier's formula, per triangle of
// a fan), overlaps with the separating-axis test.

const EARTH_RADIUS_M = 6_371_008.8;
const SQUARE_METERS_PER_ACRE = 4046.8564224;
const RAD = Math.PI / 180;

type Vec = [number, number, number];
const unit = ([lon, lat]: number[]): Vec => [Math.cos(lat * RAD) * Math.cos(lon * RAD), Math.cos(lat * RAD) * Math.sin(lon * RAD), Math.sin(lat * RAD)];
const dot = (a: Vec, b: Vec): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec, b: Vec): Vec => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** Area of a closed lon/lat ring with great-circle edges on the sphere, m^2 (Van Oosterom & Strackee per fan triangle). */
function sphericalArea(ring: number[][]): number {
  const v = ring.slice(0, -1).map(unit);
  let excess = 0;
  for (let i = 1; i + 1 < v.length; i++) {
    const [a, b, c] = [v[0], v[i], v[i + 1]];
    excess += 2 * Math.atan2(dot(a, cross(b, c)), 1 + dot(a, b) + dot(b, c) + dot(c, a));
  }
  return Math.abs(excess) * EARTH_RADIUS_M * EARTH_RADIUS_M;
}

const market = [...generateDemoParcels()];

describe('demo parcel geometry', () => {
  it('is a closed, counter-clockwise quadrilateral per parcel', () => {
    const bad = market.filter(({ geometry }) => {
      const ring = geometry.coordinates[0];
      if (geometry.type !== 'Polygon' || geometry.coordinates.length !== 1 || ring.length !== 5) return true;
      if (ring[4][0] !== ring[0][0] || ring[4][1] !== ring[0][1]) return true;
      let twice = 0;
      for (let i = 0; i < 4; i++) twice += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
      return !(twice > 0);
    });
    expect(bad).toEqual([]);
  });

  it('has acres within 2 % of the polygon area on the sphere', () => {
    let worst = 0;
    for (const { geometry, properties } of market) {
      const acres = sphericalArea(geometry.coordinates[0]) / SQUARE_METERS_PER_ACRE;
      worst = Math.max(worst, Math.abs((properties.acres as number) - acres) / acres);
    }
    expect(worst).toBeLessThan(0.02);
  });

  it('has many 5-40 acre lots and a long tail past 1,000 acres', () => {
    const acres = market.map((f) => f.properties.acres as number);
    expect(acres.filter((a) => a >= 5 && a <= 40).length / acres.length).toBeGreaterThan(0.5);
    expect(acres.some((a) => a > 1000)).toBe(true);
    expect(Math.min(...acres)).toBeGreaterThan(0.2);
  });

  it('lies on a ~60 km square of central Texas around the core', () => {
    const lons = market.flatMap((f) => f.geometry.coordinates[0].map((p) => p[0]));
    const lats = market.flatMap((f) => f.geometry.coordinates[0].map((p) => p[1]));
    const widthKm = (Math.max(...lons) - Math.min(...lons)) * 111.2 * Math.cos(DEMO_CENTER.lat * RAD);
    const heightKm = (Math.max(...lats) - Math.min(...lats)) * 111.2;
    for (const size of [widthKm, heightKm]) {
      expect(size).toBeGreaterThan(40);
      expect(size).toBeLessThan(80);
    }
    expect((Math.max(...lons) + Math.min(...lons)) / 2).toBeCloseTo(DEMO_CENTER.lon, 0);
    expect((Math.max(...lats) + Math.min(...lats)) / 2).toBeCloseTo(DEMO_CENTER.lat, 0);
  });

  it('never overlaps one parcel with another (beyond coordinate rounding)', () => {
    // Project to metres, bucket bounding boxes on a 500 m grid, and test candidate pairs.
    const kmPerLon = 111.2 * Math.cos(DEMO_CENTER.lat * RAD);
    const polygons = market.slice(0, 5000).map((f) => f.geometry.coordinates[0].slice(0, 4).map(([lon, lat]) => [(lon - DEMO_CENTER.lon) * kmPerLon * 1000, (lat - DEMO_CENTER.lat) * 111.2 * 1000]));
    const buckets = new Map<string, number[]>();
    polygons.forEach((poly, i) => {
      const xs = poly.map((p) => p[0]);
      const ys = poly.map((p) => p[1]);
      for (let bx = Math.floor(Math.min(...xs) / 500); bx <= Math.floor(Math.max(...xs) / 500); bx++) {
        for (let by = Math.floor(Math.min(...ys) / 500); by <= Math.floor(Math.max(...ys) / 500); by++) {
          const key = `${bx},${by}`;
          buckets.set(key, [...(buckets.get(key) ?? []), i]);
        }
      }
    });
    const tested = new Set<string>();
    let pairs = 0;
    let worst = -Infinity;
    for (const members of buckets.values()) {
      for (let a = 0; a < members.length; a++) {
        for (let b = a + 1; b < members.length; b++) {
          const key = `${members[a]},${members[b]}`;
          if (tested.has(key)) continue;
          tested.add(key);
          pairs++;
          worst = Math.max(worst, overlapMetres(polygons[members[a]], polygons[members[b]]));
        }
      }
    }
    expect(pairs).toBeGreaterThan(5000);
    // Rounding vertices to 1e-6 degrees moves shared edges by at most about 0.1 m.
    expect(worst).toBeLessThan(0.2);
  });
});

/**
 * How far two convex polygons overlap along the axis that separates them best (metres):
 * <= 0 when apart or touching, a few centimetres for neighbours that share rounded vertices.
 */
function overlapMetres(p: number[][], q: number[][]): number {
  let least = Infinity;
  for (const poly of [p, q]) {
    for (let i = 0; i < poly.length; i++) {
      const [ax, ay] = poly[i];
      const [bx, by] = poly[(i + 1) % poly.length];
      const length = Math.hypot(bx - ax, by - ay);
      const nx = -(by - ay) / length;
      const ny = (bx - ax) / length;
      const project = (points: number[][]): [number, number] => {
        const values = points.map(([x, y]) => x * nx + y * ny);
        return [Math.min(...values), Math.max(...values)];
      };
      const [pMin, pMax] = project(p);
      const [qMin, qMax] = project(q);
      least = Math.min(least, Math.min(pMax, qMax) - Math.max(pMin, qMin));
    }
  }
  return least;
}
