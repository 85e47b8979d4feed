// Points (substations, Voronoi sites) and discs (wetlands: distance to the edge, 0 inside).
// Queries come in two steps because parcels come in blocks: `near(box)` picks, once per block,
// the few points that can matter anywhere in it, and the LocalPoints it fills answers each parcel
// by scanning those few, nearest to the block first, stopping as soon as no closer one can follow.
// That keeps the per-parcel cost to a handful of distance computations, which the
// 200,000-parcels-a-second target needs.

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
  NearList,
  pointBoxDistance,
  pointBoxFarthest,
  ringCells,
  type Box,
  type Grid,
} from './grid.js';

export interface PointSet {
  xs: ArrayLike<number>;
  ys: ArrayLike<number>;
  /** Disc radii, km; points when absent. */
  radii?: ArrayLike<number>;
}

export class PointIndex {
  readonly size: number;
  readonly xs: Float64Array;
  readonly ys: Float64Array;
  readonly radii: Float64Array;
  private readonly maxRadius: number;
  private readonly grid: Grid;
  private readonly offsets: Int32Array;
  private readonly items: Int32Array;
  private readonly cells = new CellList();
  /** The item of the last successful `nearest`. */
  hitItem = -1;

  constructor(points: PointSet, cellSize: number) {
    this.size = points.xs.length;
    this.xs = Float64Array.from(points.xs);
    this.ys = Float64Array.from(points.ys);
    this.radii = points.radii ? Float64Array.from(points.radii) : new Float64Array(this.size);
    this.maxRadius = this.radii.reduce((max, r) => Math.max(max, r), 0);
    this.grid = gridOver(this.xs, this.ys, cellSize);
    const cells: number[] = [];
    const items: number[] = [];
    for (let i = 0; i < this.size; i++) {
      cells.push(clampCellY(this.grid, cellY(this.grid, this.ys[i])) * this.grid.nx + clampCellX(this.grid, cellX(this.grid, this.xs[i])));
      items.push(i);
    }
    ({ offsets: this.offsets, items: this.items } = bucket(this.grid, cells, items));
  }

  /** Distance to the nearest point (disc edge), Infinity when none lies within maxDistance. Sets `hitItem`. */
  nearest(x: number, y: number, maxDistance = Infinity): number {
    const local = this.near({ x0: x, y0: y, x1: x, y1: y }, maxDistance, 0, new LocalPoints());
    const d = local.nearest(x, y, maxDistance);
    this.hitItem = local.hitItem;
    return d;
  }

  /**
   * Fills `into` with the points that matter anywhere in `box`: every point that can be the
   * nearest one, within maxDistance, to some point of the box, and every point within
   * countRadius of the box (for counts).
   */
  near(box: Box, maxDistance: number, countRadius: number, into: LocalPoints): LocalPoints {
    const grid = this.grid;
    const cx0 = cellX(grid, box.x0);
    const cy0 = cellY(grid, box.y0);
    const cx1 = cellX(grid, box.x1);
    const cy1 = cellY(grid, box.y1);
    into.clear();
    // No point of the box is farther than nearestBound from its nearest point.
    let nearestBound = maxDistance;
    let bound = Math.max(nearestBound, countRadius);
    for (let ring = 0; ; ring++) {
      ringCells(grid, cx0, cy0, cx1, cy1, ring, this.cells);
      for (let c = 0; c < this.cells.length; c++) {
        const cell = this.cells.cells[c];
        for (let k = this.offsets[cell]; k < this.offsets[cell + 1]; k++) {
          const i = this.items[k];
          const x = this.xs[i];
          const y = this.ys[i];
          const r = this.radii[i];
          const distance = Math.max(0, pointBoxDistance(box, x, y) - r);
          if (distance > bound) continue;
          into.push(i, distance);
          const farthest = Math.max(0, pointBoxFarthest(box, x, y) - r);
          if (farthest < nearestBound) {
            nearestBound = farthest;
            bound = Math.max(nearestBound, countRadius);
          }
        }
      }
      // Points not yet seen lie at least ring cells from the box (less the largest radius).
      if (ring * grid.cellSize - this.maxRadius > bound || coversGrid(grid, cx0, cy0, cx1, cy1, ring)) break;
    }
    into.keepWithin(bound);
    into.fill(this.xs, this.ys, this.radii);
    return into;
  }
}

/** The few points near one block, nearest to the block first; refilled block after block. */
export class LocalPoints extends NearList {
  xs = new Float64Array(32);
  ys = new Float64Array(32);
  radii = new Float64Array(32);
  /** The original index of the point found by the last `nearest`, or -1. */
  hitItem = -1;

  get size(): number {
    return this.length;
  }

  /** Copies the coordinates of the kept items. */
  fill(xs: Float64Array, ys: Float64Array, radii: Float64Array): void {
    if (this.xs.length < this.items.length) this.grow(this.items.length);
    for (let k = 0; k < this.length; k++) {
      const i = this.items[k];
      this.xs[k] = xs[i];
      this.ys[k] = ys[i];
      this.radii[k] = radii[i];
    }
  }

  protected override grow(capacity: number): void {
    super.grow(capacity);
    this.xs = growFloat(this.xs, capacity);
    this.ys = growFloat(this.ys, capacity);
    this.radii = growFloat(this.radii, capacity);
  }

  nearest(x: number, y: number, maxDistance = Infinity): number {
    let best = Infinity;
    let bestK = -1;
    for (let k = 0; k < this.length; k++) {
      if (this.boxDistances[k] >= best) break;
      const dx = this.xs[k] - x;
      const dy = this.ys[k] - y;
      const d = Math.sqrt(dx * dx + dy * dy) - this.radii[k];
      if (d < best) {
        best = d;
        bestK = k;
      }
    }
    if (best < 0) best = 0;
    const found = bestK >= 0 && best <= maxDistance;
    this.hitItem = found ? this.items[bestK] : -1;
    return found ? best : Infinity;
  }

  countWithin(x: number, y: number, radius: number): number {
    let count = 0;
    for (let k = 0; k < this.length; k++) {
      if (this.boxDistances[k] > radius) break;
      const dx = this.xs[k] - x;
      const dy = this.ys[k] - y;
      if (Math.sqrt(dx * dx + dy * dy) - this.radii[k] <= radius) count++;
    }
    return count;
  }
}
