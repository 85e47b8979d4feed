// A uniform grid of buckets over a layer's entry boxes, for radius searches: the cells the search
// box covers list every entry that could be within the radius. Over a dense layer a search is a
// handful of cells, where a walk of the R-tree from its root tests ~8 boxes per level over 6-7
// levels, each level a cache miss (measured: the tree walk was 40 % of the engine's time over the
// 1,000,000-parcel market's layers). Kept only where it stays small: layers whose features each
// cover few cells; searches over too many cells go to the tree. Compressed rows: `cellStart`
// indexes `cellEntries`.

/** Cells aimed at per entry (the finer, the fewer candidates per search, the more memory). */
const CELLS_PER_ENTRY = 1;
/** A grid is given up when its entries cover more than this many cells in all, per entry. */
const MAX_COVER_PER_ENTRY = 4;
const MAX_CELLS = 1 << 22;
/** A search over more cells than this walks the tree instead. */
export const MAX_SEARCH_CELLS = 36;

/** A grid as plain numbers and arrays, to hand to another thread. */
export interface BucketGridParts {
  readonly minX: number;
  readonly minY: number;
  readonly sx: number;
  readonly sy: number;
  readonly cols: number;
  readonly rows: number;
  readonly cellStart: Uint32Array;
  readonly cellEntries: Uint32Array;
}

export class BucketGrid {
  private constructor(
    readonly minX: number,
    readonly minY: number,
    /** Cells per degree. */
    readonly sx: number,
    readonly sy: number,
    readonly cols: number,
    readonly rows: number,
    readonly cellStart: Uint32Array,
    readonly cellEntries: Uint32Array,
  ) {}

  get parts(): BucketGridParts {
    const { minX, minY, sx, sy, cols, rows, cellStart, cellEntries } = this;
    return { minX, minY, sx, sy, cols, rows, cellStart, cellEntries };
  }

  static fromParts(parts: BucketGridParts): BucketGrid {
    return new BucketGrid(parts.minX, parts.minY, parts.sx, parts.sy, parts.cols, parts.rows, parts.cellStart, parts.cellEntries);
  }

  /** The grid of `count` boxes (minX, minY, maxX, maxY each), or null where one would not pay. */
  static build(boxes: Float64Array, count: number): BucketGrid | null {
    if (count < 64) return null;
    let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = 0; i < count * 4; i += 4) {
      if (boxes[i] < minX) minX = boxes[i];
      if (boxes[i + 1] < minY) minY = boxes[i + 1];
      if (boxes[i + 2] > maxX) maxX = boxes[i + 2];
      if (boxes[i + 3] > maxY) maxY = boxes[i + 3];
    }
    const width = Math.max(maxX - minX, 1e-9);
    const height = Math.max(maxY - minY, 1e-9);
    let cells = Math.min(MAX_CELLS, count * CELLS_PER_ENTRY);
    for (let attempt = 0; attempt < 6 && cells >= 16; attempt++, cells = Math.floor(cells / 4)) {
      const side = Math.sqrt((width * height) / cells);
      const cols = Math.max(1, Math.ceil(width / side));
      const rows = Math.max(1, Math.ceil(height / side));
      const sx = cols / width;
      const sy = rows / height;
      const cell = (v: number, min: number, s: number, n: number) => Math.min(n - 1, Math.max(0, Math.floor((v - min) * s)));
      let cover = 0;
      for (let i = 0; i < count * 4; i += 4) {
        cover += (cell(boxes[i + 2], minX, sx, cols) - cell(boxes[i], minX, sx, cols) + 1) * (cell(boxes[i + 3], minY, sy, rows) - cell(boxes[i + 1], minY, sy, rows) + 1);
      }
      if (cover > count * MAX_COVER_PER_ENTRY) continue;
      const cellStart = new Uint32Array(cols * rows + 1);
      const each = (visit: (c: number, entry: number) => void) => {
        for (let e = 0; e < count; e++) {
          const i = e * 4;
          const c0 = cell(boxes[i], minX, sx, cols);
          const c1 = cell(boxes[i + 2], minX, sx, cols);
          const r0 = cell(boxes[i + 1], minY, sy, rows);
          const r1 = cell(boxes[i + 3], minY, sy, rows);
          for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) visit(r * cols + c, e);
        }
      };
      each((c) => cellStart[c + 1]++);
      for (let c = 0; c < cols * rows; c++) cellStart[c + 1] += cellStart[c];
      const fill = cellStart.slice(0, cols * rows);
      const cellEntries = new Uint32Array(cover);
      each((c, e) => (cellEntries[fill[c]++] = e));
      return new BucketGrid(minX, minY, sx, sy, cols, rows, cellStart, cellEntries);
    }
    return null;
  }
}
