// A polygon lying wholly inside a tile, from its web mercator world coordinates straight to the
// tile's command integers: what tileGeometry and the encoder give for it (rounded, repeats and
// the closing point dropped, vanished rings left out, exteriors clockwise on screen), with no
// array per ring or point. Most parcels of a tile take this way; the few its edges cut are
// clipped by tileGeometry.

import { EXTENT, type TileAddress } from './tile-address.js';

const DEG = Math.PI / 180;

/**
 * Degrees (x0, y0, x1, y1, …) to web mercator world coordinates, 0..1 east and south: the
 * projection TileProjector applies, with everything that does not depend on the tile done once.
 * A tile's coordinate is then world × 2^z × extent − origin, the same floating-point steps.
 */
export function worldCoordinates(degrees: Float64Array): Float64Array {
  const world = new Float64Array(degrees.length);
  for (let i = 0; i < degrees.length; i += 2) {
    world[i] = worldX(degrees[i]!);
    world[i + 1] = worldY(degrees[i + 1]!);
  }
  return world;
}

/**
 * The world y of every point of `degrees` (one a point): what is worth keeping of the world
 * coordinates, a sine and a logarithm each; x is an addition and a division, made when drawn.
 */
export function worldYs(degrees: Float64Array): Float64Array {
  const ys = new Float64Array(degrees.length / 2);
  for (let i = 0; i < ys.length; i++) ys[i] = worldY(degrees[i * 2 + 1]!);
  return ys;
}

/**
 * The world coordinates of the points `first` to `end` (exclusive) of `degrees` into `out` from
 * its start (x, y, …): x computed, y read from `ys` (worldYs). One shape's, as a tile draws it.
 */
export function worldCoordinatesOf(degrees: Float64Array, ys: Float64Array, first: number, end: number, out: Float64Array): void {
  for (let i = first, o = 0; i < end; i++, o += 2) {
    out[o] = worldX(degrees[i * 2]!);
    out[o + 1] = ys[i]!;
  }
}

const worldX = (lon: number) => (lon + 180) / 360;

function worldY(lat: number): number {
  const sin = Math.sin(lat * DEG);
  const clamped = sin > 0.9999 ? 0.9999 : sin < -0.9999 ? -0.9999 : sin;
  return 0.5 - (0.25 * Math.log((1 + clamped) / (1 - clamped))) / Math.PI;
}

/** A polygon in flat arrays: the point engine's snapshot layout of one shape. */
export interface FlatPolygon {
  /** World coordinates (worldCoordinates): of every shape, or of this one alone (worldCoordinatesOf, coordStart 0). */
  world: Float64Array;
  /** The shape's first coordinate pair in `world`. */
  coordStart: number;
  /** Its rings' starts relative to coordStart, then the end, at paths[pathStart .. pathEnd]. */
  paths: Uint32Array;
  pathStart: number;
  /** Its polygons' first rings (indexes into its rings), then the ring count, at polygons[polygonStart .. polygonEnd]. */
  polygons: Uint32Array;
  polygonStart: number;
  polygonEnd: number;
}

const zigzag = (n: number) => (n << 1) ^ (n >> 31);

/** Writes tile command integers of polygons inside a tile, reusing its buffers from one polygon to the next. */
export class WorldPolygonWriter {
  private readonly scale: number;
  private readonly originX: number;
  private readonly originY: number;
  private ring = new Int32Array(256);
  /** The command integers of the last polygon written (its first `length`). */
  readonly commands: number[] = [];
  length = 0;

  constructor(tile: TileAddress, extent = EXTENT) {
    this.scale = 2 ** tile.z * extent;
    this.originX = tile.x * extent;
    this.originY = tile.y * extent;
  }

  /** The polygon's commands into `commands`; answers their count (0: nothing of it is left at this zoom). */
  write(shape: FlatPolygon): number {
    const { world, coordStart, paths, pathStart, polygons } = shape;
    this.length = 0;
    let cx = 0;
    let cy = 0;
    for (let p = shape.polygonStart; p + 1 < shape.polygonEnd; p++) {
      for (let r = polygons[p]!; r < polygons[p + 1]!; r++) {
        const outer = r === polygons[p];
        const n = this.roundRing(world, coordStart + paths[pathStart + r]!, coordStart + paths[pathStart + r + 1]!);
        const area = n >= 3 ? this.signedArea2(n) : 0;
        if (area === 0) {
          // A polygon whose exterior vanishes in the tile takes its holes with it.
          if (outer) break;
          continue;
        }
        // Exterior rings clockwise on screen (positive), holes anticlockwise.
        const reverse = area > 0 !== outer;
        const ring = this.ring;
        const out = this.commands;
        let k = reverse ? n - 1 : 0;
        const step = reverse ? -1 : 1;
        out[this.length++] = 1 | (1 << 3);
        out[this.length++] = zigzag(ring[k * 2]! - cx);
        out[this.length++] = zigzag(ring[k * 2 + 1]! - cy);
        cx = ring[k * 2]!;
        cy = ring[k * 2 + 1]!;
        out[this.length++] = 2 | ((n - 1) << 3);
        for (let left = n - 1; left > 0; left--) {
          k += step;
          const x = ring[k * 2]!;
          const y = ring[k * 2 + 1]!;
          out[this.length++] = zigzag(x - cx);
          out[this.length++] = zigzag(y - cy);
          cx = x;
          cy = y;
        }
        out[this.length++] = 7 | (1 << 3);
      }
    }
    return this.length;
  }

  /** The ring's points in tile integers into `ring`, repeats and the closing point dropped; answers their count. */
  private roundRing(world: Float64Array, start: number, end: number): number {
    if (this.ring.length < (end - start) * 2) this.ring = new Int32Array((end - start) * 4);
    const ring = this.ring;
    let n = 0;
    let px = Number.NaN;
    let py = Number.NaN;
    for (let i = start; i < end; i++) {
      const x = Math.round(world[i * 2]! * this.scale - this.originX);
      const y = Math.round(world[i * 2 + 1]! * this.scale - this.originY);
      if (x === px && y === py) continue;
      ring[n * 2] = x;
      ring[n * 2 + 1] = y;
      n++;
      px = x;
      py = y;
    }
    if (n >= 2 && ring[0] === ring[(n - 1) * 2] && ring[1] === ring[(n - 1) * 2 + 1]) n--;
    return n;
  }

  /** Twice the ring's signed area (y down): positive when clockwise on screen. */
  private signedArea2(n: number): number {
    const ring = this.ring;
    let sum = 0;
    for (let i = 0, j = n - 1; i < n; j = i, i++) sum += ring[j * 2]! * ring[i * 2 + 1]! - ring[i * 2]! * ring[j * 2 + 1]!;
    return sum;
  }
}
