// Measurements of a validated geometry: geodesic area (for `acres` when the file has none), a
// representative point (the parcel's lat/lon) and the bounding box. Validation lives in
// validate-geometry.ts and is re-exported here so that "geometry" is one import for callers.

import type { BBox, GeoJSONGeometry, Position } from './types.js';

export { validateGeometry, checkLonLat } from './validate-geometry.js';

/** WGS84 authalic radius: the sphere with the ellipsoid's surface area, so areas stay unbiased. */
export const AUTHALIC_RADIUS_M = 6_371_007.2;
/** International acre (exactly 4046.8564224 m²). */
export const SQUARE_METRES_PER_ACRE = 4_046.856_422_4;

const RAD = Math.PI / 180;

/**
 * Area in square metres of a Polygon or MultiPolygon on the authalic sphere, holes subtracted;
 * null for every other geometry (points and lines have no area to report as acres).
 */
export function geodesicAreaM2(geometry: GeoJSONGeometry): number | null {
  if (geometry.type === 'Polygon') return polygonAreaM2(geometry.coordinates);
  if (geometry.type === 'MultiPolygon') {
    let total = 0;
    for (const polygon of geometry.coordinates) total += polygonAreaM2(polygon);
    return total;
  }
  return null;
}

/** geodesicAreaM2 in acres (unrounded; the mapper rounds). */
export function geodesicAreaAcres(geometry: GeoJSONGeometry): number | null {
  const m2 = geodesicAreaM2(geometry);
  return m2 === null ? null : m2 / SQUARE_METRES_PER_ACRE;
}

/** Outer ring minus holes. Ring orientation is ignored: files get winding order wrong often. */
export function polygonAreaM2(rings: readonly (readonly (readonly number[])[])[]): number {
  if (rings.length === 0) return 0;
  let area = Math.abs(ringExcess(rings[0]));
  for (let i = 1; i < rings.length; i++) area -= Math.abs(ringExcess(rings[i]));
  return Math.max(0, area) * AUTHALIC_RADIUS_M * AUTHALIC_RADIUS_M;
}

/**
 * Signed spherical excess (steradians) of a ring with great-circle edges, summed edge by edge as
 * the excess of the quadrilateral each edge forms with the equator:
 * E = 2·atan(tan(Δλ/2)·(tan(φ1/2) + tan(φ2/2)) / (1 + tan(φ1/2)·tan(φ2/2))).
 * Exact on the sphere, stable for parcel-sized rings (no small differences of large angles as
 * with the angle-sum form), and Δλ is wrapped so rings across the antimeridian work.
 */
function ringExcess(ring: readonly (readonly number[])[]): number {
  const n = ring.length;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const a = ring[i];
    const b = ring[i + 1 === n ? 0 : i + 1];
    let dLon = (b[0] - a[0]) * RAD;
    if (dLon > Math.PI) dLon -= 2 * Math.PI;
    else if (dLon < -Math.PI) dLon += 2 * Math.PI;
    const t1 = Math.tan((a[1] * RAD) / 2);
    const t2 = Math.tan((b[1] * RAD) / 2);
    sum += 2 * Math.atan2(Math.tan(dLon / 2) * (t1 + t2), 1 + t1 * t2);
  }
  return sum;
}

/**
 * [lon, lat] standing for the parcel: a Point is itself; a (Multi)Polygon gives the centroid of
 * the outer ring of its largest polygon; anything else, or a degenerate ring, its first vertex.
 */
export function representativePoint(geometry: GeoJSONGeometry): [number, number] {
  switch (geometry.type) {
    case 'Point':
      return [geometry.coordinates[0], geometry.coordinates[1]];
    case 'Polygon':
      return ringCentroid(geometry.coordinates[0]);
    case 'MultiPolygon': {
      let best = geometry.coordinates[0];
      let bestArea = -1;
      for (const polygon of geometry.coordinates) {
        const area = polygonAreaM2(polygon);
        if (area > bestArea) [best, bestArea] = [polygon, area];
      }
      return ringCentroid(best[0]);
    }
    case 'MultiPoint':
    case 'LineString':
      return firstVertex(geometry.coordinates);
    case 'MultiLineString':
      return firstVertex(geometry.coordinates[0]);
  }
}

/**
 * Planar (lon/lat) area centroid of a ring. Planar is fine at parcel scale and matches what
 * PostGIS ST_Centroid gives on geometry. Coordinates are taken relative to the first vertex (less
 * cancellation) and unwrapped across the antimeridian.
 */
function ringCentroid(ring: Position[]): [number, number] {
  const x0 = ring[0][0];
  const y0 = ring[0][1];
  let twiceArea = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i + 1 < ring.length; i++) {
    const x1 = unwrap(ring[i][0] - x0);
    const y1 = ring[i][1] - y0;
    const x2 = unwrap(ring[i + 1][0] - x0);
    const y2 = ring[i + 1][1] - y0;
    const cross = x1 * y2 - x2 * y1;
    twiceArea += cross;
    cx += (x1 + x2) * cross;
    cy += (y1 + y2) * cross;
  }
  if (twiceArea === 0 || !Number.isFinite(twiceArea)) return [x0, y0];
  let lon = x0 + cx / (3 * twiceArea);
  if (lon > 180) lon -= 360;
  else if (lon < -180) lon += 360;
  return [lon, y0 + cy / (3 * twiceArea)];
}

function unwrap(dLon: number): number {
  return dLon > 180 ? dLon - 360 : dLon < -180 ? dLon + 360 : dLon;
}

function firstVertex(positions: Position[]): [number, number] {
  return [positions[0][0], positions[0][1]];
}

/** [minLon, minLat, maxLon, maxLat] over every position. */
export function bbox(geometry: GeoJSONGeometry): BBox {
  const box: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  for (const positions of positionLists(geometry)) {
    for (const p of positions) {
      if (p[0] < box[0]) box[0] = p[0];
      if (p[1] < box[1]) box[1] = p[1];
      if (p[0] > box[2]) box[2] = p[0];
      if (p[1] > box[3]) box[3] = p[1];
    }
  }
  return box;
}

function positionLists(geometry: GeoJSONGeometry): Position[][] {
  switch (geometry.type) {
    case 'Point':
      return [[geometry.coordinates]];
    case 'MultiPoint':
    case 'LineString':
      return [geometry.coordinates];
    case 'MultiLineString':
    case 'Polygon':
      return geometry.coordinates;
    case 'MultiPolygon':
      return geometry.coordinates.flat(1);
  }
}
