// Feature geometries packed for measuring: coordinates in one Float64Array, paths (line parts,
// polygon rings) as offsets into it, polygons as offsets into the paths. Measuring happens in
// the plane of a ruler centred on the query point (geodesy.ts), so a segment's nearest point and
// a ring's crossing count are plain 2-D arithmetic.

import type { Ruler } from './geodesy.js';

/** [longitude, latitude], WGS84 degrees (extra ordinates ignored). */
export type Position = readonly number[];

export type Geometry =
  | { readonly type: 'Point'; readonly coordinates: Position }
  | { readonly type: 'MultiPoint'; readonly coordinates: readonly Position[] }
  | { readonly type: 'LineString'; readonly coordinates: readonly Position[] }
  | { readonly type: 'MultiLineString'; readonly coordinates: readonly (readonly Position[])[] }
  | { readonly type: 'Polygon'; readonly coordinates: readonly (readonly Position[])[] }
  | { readonly type: 'MultiPolygon'; readonly coordinates: readonly (readonly (readonly Position[])[])[] };

export type PolygonalGeometry = Extract<Geometry, { type: 'Polygon' | 'MultiPolygon' }>;

export type ShapeKind = 'point' | 'line' | 'polygon';

export interface PackedShape {
  readonly kind: ShapeKind;
  /** x0, y0, x1, y1, … */
  readonly coords: Float64Array;
  /** Start of each path in `coords` (in positions), then the total count. */
  readonly paths: Uint32Array;
  /** For polygons: start of each polygon in `paths`, then the path count. */
  readonly polygons: Uint32Array;
  readonly bbox: readonly [number, number, number, number];
}

export function packGeometry(geometry: Geometry): PackedShape {
  switch (geometry.type) {
    case 'Point':
      return pack('point', [[geometry.coordinates]], [0, 1]);
    case 'MultiPoint':
      return pack('point', [geometry.coordinates], [0, 1]);
    case 'LineString':
      return pack('line', [geometry.coordinates], [0, 1]);
    case 'MultiLineString':
      return pack('line', geometry.coordinates, [0, geometry.coordinates.length]);
    case 'Polygon':
      return pack('polygon', geometry.coordinates, [0, geometry.coordinates.length]);
    case 'MultiPolygon': {
      const starts = [0];
      for (const polygon of geometry.coordinates) starts.push(starts[starts.length - 1] + polygon.length);
      return pack('polygon', geometry.coordinates.flat(1), starts);
    }
  }
}

function pack(kind: ShapeKind, paths: readonly (readonly Position[])[], polygonStarts: number[]): PackedShape {
  let count = 0;
  for (const path of paths) count += path.length;
  const coords = new Float64Array(count * 2);
  const starts = new Uint32Array(paths.length + 1);
  const bbox: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  let at = 0;
  paths.forEach((path, i) => {
    starts[i] = at;
    for (const position of path) {
      const [lon, lat] = position;
      coords[at * 2] = lon;
      coords[at * 2 + 1] = lat;
      if (lon < bbox[0]) bbox[0] = lon;
      if (lat < bbox[1]) bbox[1] = lat;
      if (lon > bbox[2]) bbox[2] = lon;
      if (lat > bbox[3]) bbox[3] = lat;
      at++;
    }
  });
  starts[paths.length] = at;
  return { kind, coords, paths: starts, polygons: Uint32Array.from(polygonStarts), bbox };
}

/** Within a micrometre of a polygon's ring counts as on it (rounding of the projection). */
export const ON_EDGE_M = 1e-6;
const ON_EDGE_M2 = ON_EDGE_M * ON_EDGE_M;

/** The polygons of a packed polygon shape as GeoJSON MultiPolygon coordinates. */
export function unpackPolygons(shape: PackedShape): number[][][][] {
  const { coords, paths, polygons } = shape;
  const out: number[][][][] = [];
  for (let polygon = 0; polygon < polygons.length - 1; polygon++) {
    const rings: number[][][] = [];
    for (let p = polygons[polygon]; p < polygons[polygon + 1]; p++) {
      const ring: number[][] = [];
      for (let i = paths[p]; i < paths[p + 1]; i++) ring.push([coords[2 * i], coords[2 * i + 1]]);
      rings.push(ring);
    }
    out.push(rings);
  }
  return out;
}

/** Distance from the query point to a shape and the shape's nearest point. */
export interface Measure {
  /** Meters in the ruler's plane; 0 inside (or on the edge of) a polygon. */
  distance: number;
  lon: number;
  lat: number;
}

/**
 * Measures `shape` from (lon0, lat0). Polygons: 0 when the point is inside a polygon part (even-odd
 * over its rings, so holes are outside) or on any ring; otherwise the distance to the nearest
 * ring edge, holes included. This is the engine's inner loop (about 1,000 segments per location
 * on demo-sized layers), hence one specialised loop per shape kind and no calls inside them.
 */
export function measure(shape: PackedShape, lon0: number, lat0: number, ruler: Ruler, out: Measure, centreLon = (shape.bbox[0] + shape.bbox[2]) / 2): Measure {
  const { coords, paths, polygons } = shape;
  const code = shape.kind === 'point' ? POINT : shape.kind === 'line' ? LINE : POLYGON;
  return measureFlat(code, coords, 0, coords.length / 2, paths, 0, paths.length - 1, polygons, 0, polygons.length - 1, lon0, lat0, ruler, out, centreLon);
}

/** Shape kinds as codes (layer-snapshot.ts's `shapeKinds`). */
export const POINT = 0;
export const LINE = 1;
export const POLYGON = 2;

/**
 * `measure` over a shape held in a layer's flat arrays (layer-snapshot.ts), read in place: its
 * vertices are `coords` pairs from `base` to `end`; its paths are `paths[pathFrom..pathTo]`
 * (vertex positions relative to `base`, the last one closing the last path); a polygon shape's
 * polygons are `polygons[polygonFrom..polygonTo]` (path positions relative to `pathFrom`).
 */
export function measureFlat(
  kind: number,
  coords: Float64Array,
  base: number,
  end: number,
  paths: Uint32Array,
  pathFrom: number,
  pathTo: number,
  polygons: Uint32Array,
  polygonFrom: number,
  polygonTo: number,
  lon0: number,
  lat0: number,
  ruler: Ruler,
  out: Measure,
  centreLon: number,
): Measure {
  // A shape on the other side of the antimeridian is measured from the query shifted by 360°.
  const shift = centreLon - lon0 > 180 ? 360 : lon0 - centreLon > 180 ? -360 : 0;
  const x0 = lon0 + shift;
  if (kind === POINT) measurePoints(coords, base, end, x0, lat0, ruler.kx, ruler.ky, out);
  else if (kind === LINE) measurePaths(coords, base, paths, pathFrom, pathTo, x0, lat0, ruler.kx, ruler.ky, out);
  else measurePolygons(coords, base, paths, pathFrom, polygons, polygonFrom, polygonTo, x0, lat0, ruler.kx, ruler.ky, out);
  out.lon -= shift;
  return out;
}

/** `measure` of one path of `coords` from vertex `first` to `last` (a piece of a line), read in place. */
export function measureRun(coords: Float64Array, first: number, last: number, lon0: number, lat0: number, ruler: Ruler, out: Measure, centreLon: number): Measure {
  const shift = centreLon - lon0 > 180 ? 360 : lon0 - centreLon > 180 ? -360 : 0;
  const x0 = lon0 + shift;
  RUN[0] = 0;
  RUN[1] = last - first + 1;
  measurePaths(coords, first, RUN, 0, 1, x0, lat0, ruler.kx, ruler.ky, out);
  out.lon -= shift;
  return out;
}

/** The one path of `measureRun` (reused: no allocation per measure). */
const RUN = new Uint32Array(2);

function measurePoints(coords: Float64Array, base: number, endVertex: number, x0: number, y0: number, kx: number, ky: number, out: Measure): void {
  let best = Infinity;
  let bestX = 0;
  let bestY = 0;
  for (let i = base * 2, n = endVertex * 2; i < n; i += 2) {
    const x = (coords[i] - x0) * kx;
    const y = (coords[i + 1] - y0) * ky;
    const d = x * x + y * y;
    if (d < best) {
      best = d;
      bestX = x;
      bestY = y;
    }
  }
  finish(out, best, bestX, bestY, x0, y0, kx, ky);
}

function measurePaths(coords: Float64Array, base: number, paths: Uint32Array, pathFrom: number, pathTo: number, x0: number, y0: number, kx: number, ky: number, out: Measure): void {
  let best = Infinity;
  let bestX = 0;
  let bestY = 0;
  for (let p = pathFrom; p < pathTo; p++) {
    const start = (base + paths[p]) * 2;
    const end = (base + paths[p + 1]) * 2;
    let x1 = (coords[start] - x0) * kx;
    let y1 = (coords[start + 1] - y0) * ky;
    if (x1 * x1 + y1 * y1 < best) {
      best = x1 * x1 + y1 * y1;
      bestX = x1;
      bestY = y1;
    }
    for (let i = start + 2; i < end; i += 2) {
      const x2 = (coords[i] - x0) * kx;
      const y2 = (coords[i + 1] - y0) * ky;
      const dx = x2 - x1;
      const dy = y2 - y1;
      const length2 = dx * dx + dy * dy;
      let t = length2 === 0 ? 0 : -(x1 * dx + y1 * dy) / length2;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      const px = x1 + t * dx;
      const py = y1 + t * dy;
      const d = px * px + py * py;
      if (d < best) {
        best = d;
        bestX = px;
        bestY = py;
      }
      x1 = x2;
      y1 = y2;
    }
  }
  finish(out, best, bestX, bestY, x0, y0, kx, ky);
}

function measurePolygons(
  coords: Float64Array,
  base: number,
  paths: Uint32Array,
  pathBase: number,
  polygons: Uint32Array,
  polygonFrom: number,
  polygonTo: number,
  x0: number,
  y0: number,
  kx: number,
  ky: number,
  out: Measure,
): void {
  let best = Infinity;
  let bestX = 0;
  let bestY = 0;
  let inside = false;
  for (let polygon = polygonFrom; polygon < polygonTo && !inside; polygon++) {
    let parity = false;
    for (let p = pathBase + polygons[polygon], last = pathBase + polygons[polygon + 1]; p < last; p++) {
      const start = (base + paths[p]) * 2;
      const end = (base + paths[p + 1]) * 2;
      let x1 = (coords[start] - x0) * kx;
      let y1 = (coords[start + 1] - y0) * ky;
      for (let i = start + 2; i < end; i += 2) {
        const x2 = (coords[i] - x0) * kx;
        const y2 = (coords[i + 1] - y0) * ky;
        const dx = x2 - x1;
        const dy = y2 - y1;
        const length2 = dx * dx + dy * dy;
        let t = length2 === 0 ? 0 : -(x1 * dx + y1 * dy) / length2;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        const px = x1 + t * dx;
        const py = y1 + t * dy;
        const d = px * px + py * py;
        if (d < best) {
          best = d;
          bestX = px;
          bestY = py;
        }
        // A ray from the query point towards +x crosses this edge.
        if (y1 > 0 !== y2 > 0 && x1 - (y1 * dx) / dy > 0) parity = !parity;
        x1 = x2;
        y1 = y2;
      }
    }
    if (parity) inside = true;
  }
  // On the edge, up to rounding of the projection: a micrometre counts as touching.
  if (inside || best < ON_EDGE_M2) {
    out.distance = 0;
    out.lon = x0;
    out.lat = y0;
    return;
  }
  finish(out, best, bestX, bestY, x0, y0, kx, ky);
}

function finish(out: Measure, best: number, bestX: number, bestY: number, x0: number, y0: number, kx: number, ky: number): void {
  out.distance = Math.sqrt(best);
  out.lon = x0 + bestX / kx;
  out.lat = y0 + bestY / ky;
}

/** Whether (lon, lat) is inside or on the edge of a polygon shape. */
export function polygonContains(shape: PackedShape, lon: number, lat: number, ruler: Ruler): boolean {
  const [minLon, minLat, maxLon, maxLat] = shape.bbox;
  if (shape.kind !== 'polygon' || lon < minLon || lon > maxLon || lat < minLat || lat > maxLat) return false;
  return measure(shape, lon, lat, ruler, { distance: 0, lon: 0, lat: 0 }).distance === 0;
}
