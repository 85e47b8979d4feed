import { describe, expect, it } from 'vitest';
import { GeometryError } from './errors.js';
import {
  AUTHALIC_RADIUS_M,
  SQUARE_METRES_PER_ACRE,
  bbox,
  geodesicAreaAcres,
  geodesicAreaM2,
  representativePoint,
  validateGeometry,
} from './geometry.js';
import { thrown } from './testing/files.js';
import type { GeoJSONGeometry, Position } from './types.js';

const square = (lon: number, lat: number, size: number): Position[] => [
  [lon, lat],
  [lon + size, lat],
  [lon + size, lat + size],
  [lon, lat + size],
  [lon, lat],
];
const polygon = (...rings: Position[][]): GeoJSONGeometry => ({ type: 'Polygon', coordinates: rings });
const RAD = Math.PI / 180;

/** Exact area on the authalic sphere of a lon/lat cell: R²·Δλ·(sin φ2 − sin φ1). */
const cellAcres = (lat: number, size: number) =>
  (AUTHALIC_RADIUS_M ** 2 * size * RAD * (Math.sin((lat + size) * RAD) - Math.sin(lat * RAD))) / SQUARE_METRES_PER_ACRE;

describe('geodesic area', () => {
  it('matches the closed form on the sphere, and WGS84 within 0.5%, for a 0.01° cell at the equator', () => {
    const acres = geodesicAreaAcres(polygon(square(0, 0, 0.01)))!;
    expect(acres / cellAcres(0, 0.01)).toBeCloseTo(1, 8); // 305.529… acres (edges are great circles, not parallels)
    // The same cell on the WGS84 ellipsoid (GeographicLib): 1,230,907.2 m² = 304.1638 acres.
    expect(Math.abs(acres / 304.1638 - 1)).toBeLessThan(0.005);
  });

  it('stays accurate at other latitudes, for parcel-sized rings, either winding, across the antimeridian', () => {
    expect(geodesicAreaAcres(polygon(square(-97.75, 30.25, 0.001)))! / cellAcres(30.25, 0.001)).toBeCloseTo(1, 8);
    expect(geodesicAreaAcres(polygon(square(10, 45, 0.01)))! / 216.5047).toBeGreaterThan(0.995); // WGS84 value
    const clockwise = square(10, 45, 0.01).reverse();
    expect(geodesicAreaAcres(polygon(clockwise))).toBeCloseTo(geodesicAreaAcres(polygon(square(10, 45, 0.01)))!, 9);
    const across = polygon([[179.995, 0], [-179.995, 0], [-179.995, 0.01], [179.995, 0.01], [179.995, 0]]);
    expect(geodesicAreaAcres(across)).toBeCloseTo(cellAcres(0, 0.01), 4);
  });

  it('subtracts holes and sums the parts of a MultiPolygon', () => {
    const outer = square(-97, 30, 0.01);
    const hole = square(-96.9975, 30.0025, 0.005);
    const withHole = geodesicAreaM2(polygon(outer, hole))!;
    expect(withHole / geodesicAreaM2(polygon(outer))!).toBeCloseTo(0.75, 3);
    const multi: GeoJSONGeometry = { type: 'MultiPolygon', coordinates: [[outer, hole], [square(-96, 30, 0.01)]] };
    expect(geodesicAreaM2(multi)).toBeCloseTo(withHole + geodesicAreaM2(polygon(square(-96, 30, 0.01)))!, 3);
  });

  it('has no area for points and lines', () => {
    expect(geodesicAreaAcres({ type: 'Point', coordinates: [1, 2] })).toBeNull();
    expect(geodesicAreaAcres({ type: 'LineString', coordinates: [[1, 2], [3, 4]] })).toBeNull();
  });
});

describe('representativePoint and bbox', () => {
  it('is the point itself, the centroid of a polygon, or of the largest part of a MultiPolygon', () => {
    expect(representativePoint({ type: 'Point', coordinates: [-97.7, 30.3, 150] })).toEqual([-97.7, 30.3]);
    const [lon, lat] = representativePoint(polygon(square(-97, 30, 0.01), square(-96.999, 30.001, 0.002)));
    expect(lon).toBeCloseTo(-96.995, 9);
    expect(lat).toBeCloseTo(30.005, 9);
    const l: GeoJSONGeometry = polygon([[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2], [0, 0]]);
    expect(representativePoint(l).map((v) => +v.toFixed(9))).toEqual([5 / 6, 5 / 6].map((v) => +v.toFixed(9)));
    const multi: GeoJSONGeometry = { type: 'MultiPolygon', coordinates: [[square(0, 0, 0.001)], [square(5, 5, 0.01)], [square(9, 9, 0.002)]] };
    expect(representativePoint(multi).map((v) => +v.toFixed(9))).toEqual([5.005, 5.005]);
  });

  it('falls back to the first vertex for lines, points sets and degenerate rings', () => {
    expect(representativePoint({ type: 'LineString', coordinates: [[3, 4], [5, 6]] })).toEqual([3, 4]);
    expect(representativePoint({ type: 'MultiPoint', coordinates: [[7, 8], [9, 10]] })).toEqual([7, 8]);
    expect(representativePoint({ type: 'MultiLineString', coordinates: [[[1, 1], [2, 2]]] })).toEqual([1, 1]);
    expect(representativePoint(polygon([[1, 1], [2, 2], [3, 3], [1, 1]]))).toEqual([1, 1]);
  });

  it('gives [minLon, minLat, maxLon, maxLat]', () => {
    expect(bbox({ type: 'Point', coordinates: [1, 2] })).toEqual([1, 2, 1, 2]);
    expect(bbox({ type: 'MultiPolygon', coordinates: [[square(-97, 30, 0.5)], [square(-99, 31, 0.25)]] })).toEqual([-99, 30, -96.5, 31.25]);
  });
});

describe('validateGeometry', () => {
  it('accepts the six types, keeping only type and coordinates; null and empty are null', () => {
    expect(validateGeometry({ type: 'Point', coordinates: [180, -90], bbox: [1, 2, 3, 4] })).toEqual({ type: 'Point', coordinates: [180, -90] });
    expect(validateGeometry(polygon(square(0, 0, 1)))).toEqual(polygon(square(0, 0, 1)));
    expect(validateGeometry(null)).toBeNull();
    expect(validateGeometry({ type: 'MultiPolygon', coordinates: [] })).toBeNull();
  });

  it('rejects out-of-range coordinates and malformed shapes with a clear message', () => {
    const cases: [unknown, RegExp][] = [
      [{ type: 'Point', coordinates: [-180.0001, 0] }, /longitude -180.0001 is outside -180..180/],
      [{ type: 'Point', coordinates: [0, 90.5] }, /latitude 90.5 is outside -90..90/],
      [{ type: 'Point', coordinates: [2_000_000, 13_000_000] }, /not a projected CRS/],
      [{ type: 'Point', coordinates: ['1', 2] }, /must hold numbers/],
      [{ type: 'Point', coordinates: [1] }, /position must be an array \[longitude, latitude\]/],
      [{ type: 'LineString', coordinates: [[1, 2]] }, /at least 2 positions/],
      [polygon([[0, 0], [1, 0], [0, 0]]), /at least 4 positions, got 3/],
      [polygon([[0, 0], [1, 0], [1, 1], [0, 1]]), /must be closed/],
      [{ type: 'Polygon', coordinates: [[]] }, /at least 4 positions, got 0/],
      [{ type: 'MultiPolygon', coordinates: [[]] }, /needs an outer ring/],
      [{ type: 'GeometryCollection', geometries: [] }, /GeometryCollection is not supported/],
      [{ type: 'Circle', coordinates: [1, 2] }, /unknown geometry type "Circle"/],
      [{ type: 'Point' }, /must be an array/],
      ['POINT(1 2)', /must be an object or null/],
    ];
    for (const [value, message] of cases) {
      const error = thrown(() => validateGeometry(value));
      expect(error, JSON.stringify(value)).toBeInstanceOf(GeometryError);
      expect((error as Error).message, JSON.stringify(value)).toMatch(message);
    }
  });
});
