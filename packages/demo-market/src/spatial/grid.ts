// The uniform grid under the point and segment indexes, in the local kilometre frame: items are
// bucketed per cell in compressed form (one offsets array, one items array; no per-cell JS
// arrays), and searched ring by ring outwards from the query's cell.

export interface Grid {
  minX: number;
  minY: number;
  cellSize: number;
  nx: number;
  ny: number;
}

export function gridOver(xs: ArrayLike<number>, ys: ArrayLike<number>, cellSize: number): Grid {
  if (xs.length === 0) return { minX: 0, minY: 0, cellSize, nx: 1, ny: 1 };
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < xs.length; i++) {
    if (xs[i] < minX) minX = xs[i];
    if (xs[i] > maxX) maxX = xs[i];
    if (ys[i] < minY) minY = ys[i];
    if (ys[i] > maxY) maxY = ys[i];
  }
  return {
    minX,
    minY,
    cellSize,
    nx: Math.max(1, Math.ceil((maxX - minX) / cellSize + 1e-9)),
    ny: Math.max(1, Math.ceil((maxY - minY) / cellSize + 1e-9)),
  };
}

export interface Buckets {
  offsets: Int32Array;
  items: Int32Array;
}

/** Builds the compressed cell -> items table from parallel (cell, item) lists. */
export function bucket(grid: Grid, cells: readonly number[], items: readonly number[]): Buckets {
  const cellCount = grid.nx * grid.ny;
  const offsets = new Int32Array(cellCount + 1);
  for (const cell of cells) offsets[cell + 1]++;
  for (let i = 0; i < cellCount; i++) offsets[i + 1] += offsets[i];
  const fill = offsets.slice(0, cellCount);
  const bucketed = new Int32Array(items.length);
  for (let i = 0; i < cells.length; i++) bucketed[fill[cells[i]]++] = items[i];
  return { offsets, items: bucketed };
}

export function cellX(grid: Grid, x: number): number {
  return Math.floor((x - grid.minX) / grid.cellSize);
}

export function cellY(grid: Grid, y: number): number {
  return Math.floor((y - grid.minY) / grid.cellSize);
}

export function clampCellX(grid: Grid, cx: number): number {
  return cx < 0 ? 0 : cx >= grid.nx ? grid.nx - 1 : cx;
}

export function clampCellY(grid: Grid, cy: number): number {
  return cy < 0 ? 0 : cy >= grid.ny ? grid.ny - 1 : cy;
}

/** A growable scratch list of cell numbers. */
export class CellList {
  cells = new Int32Array(64);
  length = 0;

  push(cell: number): void {
    if (this.length === this.cells.length) {
      const bigger = new Int32Array(this.cells.length * 2);
      bigger.set(this.cells);
      this.cells = bigger;
    }
    this.cells[this.length++] = cell;
  }
}

/**
 * Fills `out` with the grid cells at Chebyshev distance exactly `ring` from the cell rectangle
 * [cx0, cx1] x [cy0, cy1] (ring 0 is the rectangle itself). The rectangle may reach outside the
 * grid. Searching ring after ring, everything not yet seen after ring r lies at least
 * r * cellSize away from anything inside the rectangle.
 */
export function ringCells(grid: Grid, cx0: number, cy0: number, cx1: number, cy1: number, ring: number, out: CellList): void {
  out.length = 0;
  const x0 = cx0 - ring;
  const x1 = cx1 + ring;
  const y0 = cy0 - ring;
  const y1 = cy1 + ring;
  for (let y = Math.max(0, y0); y <= Math.min(grid.ny - 1, y1); y++) {
    // The first and last rows of the ring are full; the rows between contribute their two ends.
    const fullRow = ring === 0 || y === y0 || y === y1;
    const step = fullRow ? 1 : x1 - x0;
    for (let x = x0; x <= x1; x += step) {
      if (x >= 0 && x < grid.nx) out.push(y * grid.nx + x);
    }
  }
}

/** True once the rings up to `ring` around the cell rectangle have covered the whole grid. */
export function coversGrid(grid: Grid, cx0: number, cy0: number, cx1: number, cy1: number, ring: number): boolean {
  return cx0 - ring <= 0 && cx1 + ring >= grid.nx - 1 && cy0 - ring <= 0 && cy1 + ring >= grid.ny - 1;
}

/**
 * Items near a box, each with its distance to the box: the base of the per-block lists. Filled
 * by `push`, then `keepWithin` drops the far ones and sorts the rest nearest first. The arrays
 * only grow, so a list reused block after block stops allocating.
 */
export class NearList {
  length = 0;
  items = new Int32Array(32);
  /** Distance of each item to the box: a lower bound for any point in it. */
  boxDistances = new Float64Array(32);

  clear(): void {
    this.length = 0;
  }

  push(item: number, distance: number): void {
    if (this.length === this.items.length) this.grow(this.length * 2);
    this.items[this.length] = item;
    this.boxDistances[this.length] = distance;
    this.length++;
  }

  /** Keeps the items within `bound`, nearest first (ties by item, for a deterministic order). Insertion sort: lists are short. */
  keepWithin(bound: number): void {
    const { items, boxDistances } = this;
    let n = 0;
    for (let k = 0; k < this.length; k++) {
      const item = items[k];
      const distance = boxDistances[k];
      if (distance > bound) continue;
      let j = n++;
      while (j > 0 && (boxDistances[j - 1] > distance || (boxDistances[j - 1] === distance && items[j - 1] > item))) {
        items[j] = items[j - 1];
        boxDistances[j] = boxDistances[j - 1];
        j--;
      }
      items[j] = item;
      boxDistances[j] = distance;
    }
    this.length = n;
  }

  /** Grows the arrays to hold `capacity` items; subclasses grow their own too. */
  protected grow(capacity: number): void {
    this.items = growInt(this.items, capacity);
    this.boxDistances = growFloat(this.boxDistances, capacity);
  }
}

export function growInt(array: Int32Array, capacity: number): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(capacity);
  bigger.set(array);
  return bigger;
}

export function growFloat(array: Float64Array, capacity: number): Float64Array<ArrayBuffer> {
  const bigger = new Float64Array(capacity);
  bigger.set(array);
  return bigger;
}

/** An axis-aligned box (a block of parcels), km. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Distance from a point to the box, 0 inside. */
export function pointBoxDistance(box: Box, x: number, y: number): number {
  const dx = x < box.x0 ? box.x0 - x : x > box.x1 ? x - box.x1 : 0;
  const dy = y < box.y0 ? box.y0 - y : y > box.y1 ? y - box.y1 : 0;
  return Math.sqrt(dx * dx + dy * dy);
}

/** Distance from a point to the farthest point of the box. */
export function pointBoxFarthest(box: Box, x: number, y: number): number {
  const dx = Math.max(Math.abs(x - box.x0), Math.abs(x - box.x1));
  const dy = Math.max(Math.abs(y - box.y0), Math.abs(y - box.y1));
  return Math.sqrt(dx * dx + dy * dy);
}
