// A feature's geometry (WGS84 degrees, packed as the point engine packs it) turned into one
// tile's coordinates: projected, clipped to the tile and its buffer (lineclip, the
// Sutherland-Hodgman and Cohen-Sutherland clippers geojson-vt's authors publish), rounded to
// integers with repeated points dropped, and wound as the vector tile specification wants.

import { clipPolygon, clipPolyline } from 'lineclip';
import type { TileProjector } from './project.js';
import { BUFFER, EXTENT } from './tile-address.js';

/** The geometry kinds of the vector tile specification. */
export const POINT = 1;
export const LINE = 2;
export const POLYGON = 3;
export type TileGeometryType = typeof POINT | typeof LINE | typeof POLYGON;

/** The point engine's packed shape, structurally (packages/point-engine geometry.ts). */
export interface PackedShapeLike {
  readonly kind: 'point' | 'line' | 'polygon';
  /** x0, y0, x1, y1, … in degrees */
  readonly coords: Float64Array;
  /** Start of each path in `coords` (in positions), then the total count. */
  readonly paths: Uint32Array;
  /** For polygons: start of each polygon in `paths`, then the path count. */
  readonly polygons: Uint32Array;
  readonly bbox: readonly [number, number, number, number];
}

/** Integer tile coordinates: one flat x, y, x, y… list per ring, line part or point set. */
export interface TileGeometry {
  type: TileGeometryType;
  paths: number[][];
}

type Point = [number, number];

export interface TileClip {
  projector: TileProjector;
  /** The tile's box with its buffer in degrees [west, south, east, north] (tileBox). */
  box: readonly [number, number, number, number];
  extent?: number;
  buffer?: number;
}

/** The shape in the tile, or null when nothing of it is left there. */
export function tileGeometry(shape: PackedShapeLike, clip: TileClip): TileGeometry | null {
  const extent = clip.extent ?? EXTENT;
  const buffer = clip.buffer ?? BUFFER;
  const bounds: [number, number, number, number] = [-buffer, -buffer, extent + buffer, extent + buffer];
  const [w, s, e, n] = shape.bbox;
  // Most parcels lie wholly inside a tile: they need no clipping.
  const inside = w >= clip.box[0] && s >= clip.box[1] && e <= clip.box[2] && n <= clip.box[3];
  switch (shape.kind) {
    case 'point':
      return points(shape, clip.projector, bounds);
    case 'line':
      return lines(shape, clip.projector, inside ? null : bounds);
    case 'polygon':
      return polygons(shape, clip.projector, inside ? null : bounds);
  }
}

function projectPath(shape: PackedShapeLike, path: number, projector: TileProjector, dropClosing: boolean): Point[] {
  const start = shape.paths[path];
  let end = shape.paths[path + 1];
  const c = shape.coords;
  if (dropClosing && end - start > 1 && c[start * 2] === c[(end - 1) * 2] && c[start * 2 + 1] === c[(end - 1) * 2 + 1]) end--;
  const out: Point[] = new Array(end - start);
  for (let i = start; i < end; i++) out[i - start] = [projector.x(c[i * 2]), projector.y(c[i * 2 + 1])];
  return out;
}

/**
 * A path wholly inside the tile, straight to integers: projected, rounded, repeats dropped, with
 * no intermediate points (most parcels of a tile take this way; it halves the time of a tile).
 */
function roundedPath(shape: PackedShapeLike, path: number, projector: TileProjector, ring: boolean): number[] {
  const start = shape.paths[path];
  const end = shape.paths[path + 1];
  const c = shape.coords;
  const flat: number[] = [];
  let px = Number.NaN;
  let py = Number.NaN;
  for (let i = start; i < end; i++) {
    const x = Math.round(projector.x(c[i * 2]));
    const y = Math.round(projector.y(c[i * 2 + 1]));
    if (x === px && y === py) continue;
    flat.push(x, y);
    px = x;
    py = y;
  }
  if (ring && flat.length >= 4 && flat[0] === flat[flat.length - 2] && flat[1] === flat[flat.length - 1]) flat.length -= 2;
  return flat;
}

/** Rounded to integers, repeated points dropped (also a ring's last equal to its first). */
function rounded(points: readonly Point[], ring: boolean): number[] {
  const flat: number[] = [];
  let px = Number.NaN;
  let py = Number.NaN;
  for (const [fx, fy] of points) {
    const x = Math.round(fx);
    const y = Math.round(fy);
    if (x === px && y === py) continue;
    flat.push(x, y);
    px = x;
    py = y;
  }
  if (ring && flat.length >= 4 && flat[0] === flat[flat.length - 2] && flat[1] === flat[flat.length - 1]) flat.length -= 2;
  return flat;
}

/** Twice the ring's signed area in tile coordinates (y down): positive when clockwise on screen. */
function signedArea2(flat: readonly number[]): number {
  let sum = 0;
  for (let i = 0, j = flat.length - 2; i < flat.length; j = i, i += 2) sum += flat[j] * flat[i + 1] - flat[i] * flat[j + 1];
  return sum;
}

/** Reverses a flat ring in place, keeping x, y pairs. */
function reverseRing(flat: number[]): void {
  for (let i = 0, j = flat.length - 2; i < j; i += 2, j -= 2) {
    const x = flat[i];
    const y = flat[i + 1];
    flat[i] = flat[j];
    flat[i + 1] = flat[j + 1];
    flat[j] = x;
    flat[j + 1] = y;
  }
}

function polygons(shape: PackedShapeLike, projector: TileProjector, bounds: [number, number, number, number] | null): TileGeometry | null {
  const paths: number[][] = [];
  for (let p = 0; p + 1 < shape.polygons.length; p++) {
    for (let r = shape.polygons[p]; r < shape.polygons[p + 1]; r++) {
      const outer = r === shape.polygons[p];
      const flat = bounds ? rounded(clipPolygon(projectPath(shape, r, projector, true), bounds), true) : roundedPath(shape, r, projector, true);
      const area = flat.length >= 6 ? signedArea2(flat) : 0;
      if (area === 0) {
        // A polygon whose exterior vanishes in the tile takes its holes with it.
        if (outer) break;
        continue;
      }
      // Exterior rings clockwise on screen (positive), holes anticlockwise.
      if (area > 0 !== outer) reverseRing(flat);
      paths.push(flat);
    }
  }
  return paths.length > 0 ? { type: POLYGON, paths } : null;
}

function lines(shape: PackedShapeLike, projector: TileProjector, bounds: [number, number, number, number] | null): TileGeometry | null {
  const paths: number[][] = [];
  for (let l = 0; l + 1 < shape.paths.length; l++) {
    if (!bounds) {
      const flat = roundedPath(shape, l, projector, false);
      if (flat.length >= 4) paths.push(flat);
      continue;
    }
    for (const part of clipPolyline(projectPath(shape, l, projector, false), bounds)) {
      const flat = rounded(part, false);
      if (flat.length >= 4) paths.push(flat);
    }
  }
  return paths.length > 0 ? { type: LINE, paths } : null;
}

function points(shape: PackedShapeLike, projector: TileProjector, bounds: [number, number, number, number]): TileGeometry | null {
  const flat: number[] = [];
  const c = shape.coords;
  for (let i = 0; i < c.length; i += 2) {
    const x = Math.round(projector.x(c[i]));
    const y = Math.round(projector.y(c[i + 1]));
    if (x >= bounds[0] && x <= bounds[2] && y >= bounds[1] && y <= bounds[3]) flat.push(x, y);
  }
  return flat.length > 0 ? { type: POINT, paths: [flat] } : null;
}
