// Polylines as segments grouped into features (a power line, a river). Same two-step scheme as
// points.ts: `near(box)` once per block picks the segments that can matter, and LocalSegments
// answers each parcel by scanning them, nearest to the block first.

import {
  bucket,
  CellList,
  cellX,
  cellY,
  clampCellX,
  clampCellY,
  coversGrid,
  gridOver,
  growFloat,
  growInt,
  NearList,
  pointBoxDistance,
  ringCells,
  type Box,
  type Grid,
} from './grid.js';
/** Collects polylines, one feature each, before they are frozen into a SegmentIndex. */
export class SegmentIndexBuilder {
  private readonly coords: number[] = [];
  private readonly features: number[] = [];
  private featureCount = 0;

  /** Adds a polyline given as [x0, y0, x1, y1, ...]; returns its feature id. */
  addPolyline(flat: readonly number[]): number {
    const feature = this.featureCount++;
    for (let i = 0; i + 3 < flat.length; i += 2) {
      this.coords.push(flat[i], flat[i + 1], flat[i + 2], flat[i + 3]);
      this.features.push(feature);
    }
    return feature;
  }

  build(cellSize: number): SegmentIndex {
    return new SegmentIndex(Float64Array.from(this.coords), Int32Array.from(this.features), this.featureCount, cellSize);
  }
}

/** Squared distance from (x, y) to segment (ax, ay)-(bx, by). */
function segmentDistanceSquared(ax: number, ay: number, bx: number, by: number, x: number, y: number): number {
  const vx = bx - ax;
  const vy = by - ay;
  const wx = x - ax;
  const wy = y - ay;
  const lengthSquared = vx * vx + vy * vy;
  let t = lengthSquared > 0 ? (wx * vx + wy * vy) / lengthSquared : 0;
  if (t < 0) t = 0;
  else if (t > 1) t = 1;
  const dx = wx - t * vx;
  const dy = wy - t * vy;
  return dx * dx + dy * dy;
}

export class SegmentIndex {
  readonly featureCount: number;
  private readonly grid: Grid;
  private readonly offsets: Int32Array;
  private readonly items: Int32Array;
  private readonly cells = new CellList();
  /** Per segment, the last `near` call that collected it: a segment sits in several cells. */
  private readonly collected: Int32Array;
  private collection = 0;
  /** The feature of the last successful `nearest`. */
  hitFeature = -1;

  constructor(
    private readonly coords: Float64Array,
    private readonly features: Int32Array,
    featureCount: number,
    cellSize: number,
  ) {
    this.featureCount = featureCount;
    this.collected = new Int32Array(features.length);
    const xs: number[] = [];
    const ys: number[] = [];
    for (let s = 0; s < features.length; s++) {
      xs.push(coords[4 * s], coords[4 * s + 2]);
      ys.push(coords[4 * s + 1], coords[4 * s + 3]);
    }
    const grid = gridOver(xs, ys, cellSize);
    this.grid = grid;
    // A segment goes into every cell its bounding box touches: a few false candidates are cheaper
    // than exact rasterisation.
    const cells: number[] = [];
    const items: number[] = [];
    for (let s = 0; s < features.length; s++) {
      const [ax, ay, bx, by] = coords.subarray(4 * s, 4 * s + 4);
      const x0 = clampCellX(grid, cellX(grid, Math.min(ax, bx)));
      const x1 = clampCellX(grid, cellX(grid, Math.max(ax, bx)));
      const y0 = clampCellY(grid, cellY(grid, Math.min(ay, by)));
      const y1 = clampCellY(grid, cellY(grid, Math.max(ay, by)));
      for (let cy = y0; cy <= y1; cy++) {
        for (let cx = x0; cx <= x1; cx++) {
          cells.push(cy * grid.nx + cx);
          items.push(s);
        }
      }
    }
    ({ offsets: this.offsets, items: this.items } = bucket(grid, cells, items));
  }

  get segmentCount(): number {
    return this.features.length;
  }

  /** Distance to the nearest segment, Infinity beyond maxDistance. Sets `hitFeature`. */
  nearest(x: number, y: number, maxDistance = Infinity): number {
    const local = this.near({ x0: x, y0: y, x1: x, y1: y }, maxDistance, 0, new LocalSegments());
    const d = local.nearest(x, y, maxDistance);
    this.hitFeature = local.hitFeature;
    return d;
  }

  /**
   * Fills `into` with the segments that matter anywhere in `box`: every segment that can be the
   * nearest one, within maxDistance, to some point of the box, and every segment within
   * countRadius of the box (for counts of features within a radius).
   */
  near(box: Box, maxDistance: number, countRadius: number, into: LocalSegments): LocalSegments {
    const grid = this.grid;
    const c = this.coords;
    const cx0 = cellX(grid, box.x0);
    const cy0 = cellY(grid, box.y0);
    const cx1 = cellX(grid, box.x1);
    const cy1 = cellY(grid, box.y1);
    const collection = ++this.collection;
    into.clear();
    // `nearestBound`: no point of the box is farther than this from its nearest segment.
    let nearestBound = maxDistance;
    let bound = Math.max(nearestBound, countRadius);
    for (let ring = 0; ; ring++) {
      ringCells(grid, cx0, cy0, cx1, cy1, ring, this.cells);
      for (let n = 0; n < this.cells.length; n++) {
        const cell = this.cells.cells[n];
        for (let k = this.offsets[cell]; k < this.offsets[cell + 1]; k++) {
          const s = this.items[k];
          if (this.collected[s] === collection) continue;
          this.collected[s] = collection;
          const ax = c[4 * s];
          const ay = c[4 * s + 1];
          const bx = c[4 * s + 2];
          const by = c[4 * s + 3];
          // Cheap rejection first: the gap between the segment's bounding box and the box.
          const gapX = Math.max(0, Math.min(ax, bx) - box.x1, box.x0 - Math.max(ax, bx));
          const gapY = Math.max(0, Math.min(ay, by) - box.y1, box.y0 - Math.max(ay, by));
          if (gapX * gapX + gapY * gapY > bound * bound) continue;
          const distance = segmentBoxDistance(box, ax, ay, bx, by);
          if (distance > bound) continue;
          into.push(s, distance);
          const farthest = farthestCornerDistance(box, ax, ay, bx, by);
          if (farthest < nearestBound) {
            nearestBound = farthest;
            bound = Math.max(nearestBound, countRadius);
          }
        }
      }
      // Segments not yet seen lie wholly outside the rings searched: at least ring cells away.
      if (ring * grid.cellSize > bound || coversGrid(grid, cx0, cy0, cx1, cy1, ring)) break;
    }
    into.keepWithin(bound);
    into.fill(this.coords, this.features);
    return into;
  }
}

/**
 * The largest distance from a point of the box to the segment. Distance to a segment is convex,
 * so it is attained at a corner.
 */
function farthestCornerDistance(box: Box, ax: number, ay: number, bx: number, by: number): number {
  return Math.sqrt(
    Math.max(
      segmentDistanceSquared(ax, ay, bx, by, box.x0, box.y0),
      segmentDistanceSquared(ax, ay, bx, by, box.x1, box.y0),
      segmentDistanceSquared(ax, ay, bx, by, box.x1, box.y1),
      segmentDistanceSquared(ax, ay, bx, by, box.x0, box.y1),
    ),
  );
}

/** Distance between a segment and a box: 0 if they meet, else attained at a box corner or a segment end. */
function segmentBoxDistance(box: Box, ax: number, ay: number, bx: number, by: number): number {
  if (segmentMeetsBox(box, ax, ay, bx, by)) return 0;
  const corners = Math.min(
    segmentDistanceSquared(ax, ay, bx, by, box.x0, box.y0),
    segmentDistanceSquared(ax, ay, bx, by, box.x1, box.y0),
    segmentDistanceSquared(ax, ay, bx, by, box.x1, box.y1),
    segmentDistanceSquared(ax, ay, bx, by, box.x0, box.y1),
  );
  return Math.min(Math.sqrt(corners), pointBoxDistance(box, ax, ay), pointBoxDistance(box, bx, by));
}

/** Does any part of the segment lie in the box? Liang-Barsky clipping, unrolled: it runs per candidate. */
function segmentMeetsBox(box: Box, ax: number, ay: number, bx: number, by: number): boolean {
  if (ax >= box.x0 && ax <= box.x1 && ay >= box.y0 && ay <= box.y1) return true;
  const dx = bx - ax;
  const dy = by - ay;
  let t0 = 0;
  let t1 = 1;
  // One pass per side of the box: p is how fast the segment leaves through it, q the margin at t = 0.
  for (let side = 0; side < 4; side++) {
    const p = side === 0 ? -dx : side === 1 ? dx : side === 2 ? -dy : dy;
    const q = side === 0 ? ax - box.x0 : side === 1 ? box.x1 - ax : side === 2 ? ay - box.y0 : box.y1 - ay;
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const r = q / p;
    if (p < 0) {
      if (r > t1) return false;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return false;
      if (r < t1) t1 = r;
    }
  }
  return true;
}

/** The few segments near one block, nearest to the block first; refilled block after block. */
export class LocalSegments extends NearList {
  coords = new Float64Array(4 * 32);
  features = new Int32Array(32);
  /** The feature of the segment found by the last `nearest`, or -1. */
  hitFeature = -1;
  /** Features counted by the current `countFeaturesWithin` call (a feature has many segments). */
  private counted = new Int32Array(32);

  get size(): number {
    return this.length;
  }

  /** Copies the coordinates and features of the kept segments. */
  fill(coords: Float64Array, features: Int32Array): void {
    if (this.features.length < this.items.length) this.grow(this.items.length);
    for (let k = 0; k < this.length; k++) {
      const s = this.items[k];
      this.coords[4 * k] = coords[4 * s];
      this.coords[4 * k + 1] = coords[4 * s + 1];
      this.coords[4 * k + 2] = coords[4 * s + 2];
      this.coords[4 * k + 3] = coords[4 * s + 3];
      this.features[k] = features[s];
    }
  }

  protected override grow(capacity: number): void {
    super.grow(capacity);
    this.coords = growFloat(this.coords, 4 * capacity);
    this.features = growInt(this.features, capacity);
    this.counted = growInt(this.counted, capacity);
  }

  nearest(x: number, y: number, maxDistance = Infinity): number {
    const c = this.coords;
    let best = Infinity;
    let bestK = -1;
    for (let k = 0; k < this.length; k++) {
      const lower = this.boxDistances[k];
      if (lower * lower >= best) break;
      const d = segmentDistanceSquared(c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3], x, y);
      if (d < best) {
        best = d;
        bestK = k;
      }
    }
    best = Math.sqrt(best);
    const found = bestK >= 0 && best <= maxDistance;
    this.hitFeature = found ? this.features[bestK] : -1;
    return found ? best : Infinity;
  }

  /** Number of distinct features with a segment within `radius`. */
  countFeaturesWithin(x: number, y: number, radius: number): number {
    const c = this.coords;
    const radiusSquared = radius * radius;
    let count = 0;
    next: for (let k = 0; k < this.length; k++) {
      if (this.boxDistances[k] > radius) break;
      const feature = this.features[k];
      for (let j = 0; j < count; j++) if (this.counted[j] === feature) continue next;
      if (segmentDistanceSquared(c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3], x, y) <= radiusSquared) this.counted[count++] = feature;
    }
    return count;
  }
}
