// The index of one gridded layer version: a single band over one or more tiles (the GeoTIFFs of a
// DEM, each kept on its own native grid and CRS), whose cells come in blocks through a store.
//
// Which tile answers a point: the finest one holding it with data there — tiles are ranked by cell
// size (their native cell area when every tile has the same CRS, else the ground area of a cell at
// the tile's centre, equal within 1 %), then later in name order first; a tile with no data at the
// point gives way to the next. Sampling: bilinear between the four cell centres around the point,
// because elevation and the other gridded sources are continuous fields and nearest-cell sampling
// would make values jump at cell edges; when one of the four is nodata, the value of the cell
// containing the point. Slope and aspect: Horn's method on the 3x3 cells around the containing
// cell, with the cell size in meters at the point; neighbours that are nodata take the centre's
// value (GDAL's -compute_edges behaviour). Across a seam, the cells past a tile's edge are read
// from the tile that holds their centres (its nearest cell), so a mosaic of aligned tiles answers
// exactly as one grid would; past the edge of every tile, bilinear repeats the edge cells and
// Horn takes the centre's value, as before there were tiles.

import Flatbush from 'flatbush';
import type { SourceId } from '@landscreen/field-catalog';
import { GridBlocksNotLoadedError, ResidentBlocks, type GridBlock, type GridBlockStore, type GridBlockView } from './grid-blocks.js';
import { GridTile, type GridTileInput, type TilePosition } from './grid-tile.js';
import { LayerBuildError } from './errors.js';

/** One grid whose cells are all in memory: a mosaic of a single tile and a single block. */
export interface GridInput extends Omit<GridTileInput, 'firstBlock'> {
  /** Row-major, row 0 at the origin (the north edge when north-up). */
  readonly values: Float32Array | Float64Array;
}

export interface GridMosaicInput {
  /** In name order: on overlaps of equal resolution, the later tile wins. */
  readonly tiles: readonly GridTileInput[];
  readonly blockSize: number;
  readonly blocks: GridBlockStore;
}

export type GridSample = { readonly value: number } | 'outside' | 'no_data';

export interface TerrainSample {
  readonly slopeDegrees: number;
  /** Clockwise from north, [0, 360); null on flat ground, where no direction is downhill. */
  readonly aspectDegrees: number | null;
}

/** The blocks one evaluation reads, by key, held for it (structured-cloneable: posted to workers). */
export type HeldBlocks = ReadonlyMap<number, GridBlock>;

/** Which of a point's answers an evaluation needs, so that only their cells are loaded. */
export interface GridNeeds {
  readonly value: boolean;
  readonly terrain: boolean;
}

/** Tiles up to this many are scanned in order; more get a spatial index over their bounds. */
const SCAN_TILES = 8;
/** Tiles whose cell sizes differ by less than this are of one resolution (then name order decides). */
const SAME_RESOLUTION = 0.01;

/** A block of valid cells handed out for blocks not loaded yet while finding which blocks a point needs. */
let standIn: Float32Array = new Float32Array(0);

export class GridLayerIndex {
  readonly kind = 'grid' as const;
  /** Tiles in the order they answer (see the rules above). */
  readonly tiles: readonly GridTile[];
  private readonly store: GridBlockStore;
  private readonly tree: Flatbush | null;
  private readonly at: TilePosition = { fx: 0, fy: 0 };
  private readonly residentView: GridBlockView;

  constructor(
    readonly source: SourceId,
    readonly version: string,
    mosaic: GridMosaicInput,
  ) {
    if (mosaic.tiles.length === 0) throw new LayerBuildError(`grid of ${source}: no tiles`, null);
    const tiles = mosaic.tiles.map((tile) => new GridTile(source, tile, mosaic.blockSize));
    this.tiles = answeringOrder(tiles);
    this.store = mosaic.blocks;
    if (standIn.length < mosaic.blockSize * mosaic.blockSize) standIn = new Float32Array(mosaic.blockSize * mosaic.blockSize);
    if (this.tiles.length > SCAN_TILES) {
      const tree = new Flatbush(this.tiles.length);
      for (const tile of this.tiles) tree.add(...tile.bounds);
      tree.finish();
      this.tree = tree;
    } else {
      this.tree = null;
    }
    this.residentView = (key) => {
      const block = this.store.peek(key);
      if (block === undefined) throw new GridBlocksNotLoadedError(source, key);
      return block;
    };
  }

  /** A grid held whole in memory, one tile. */
  static whole(source: SourceId, version: string, grid: GridInput): GridLayerIndex {
    const { values, ...tile } = grid;
    if (values.length !== grid.width * grid.height) {
      throw new LayerBuildError(`grid of ${source}: ${values.length} values for ${grid.width}x${grid.height} cells`, null);
    }
    const blockSize = Math.max(grid.width, grid.height, 1);
    return new GridLayerIndex(source, version, { tiles: [tile], blockSize, blocks: new ResidentBlocks(new Map([[0, values as GridBlock]])) });
  }

  /** Whether every block is in memory, so that evaluations need no loading. */
  get resident(): boolean {
    return this.store.complete;
  }

  /**
   * Loads the blocks these points' answers read and holds them for one evaluation. The cells a
   * point reads do not depend on their values but through no data (a tile with none at the point
   * gives way to the next), so the points are walked with what is in memory, the blocks found
   * missing are loaded, and the walk is repeated with them until nothing is missing.
   */
  async hold(points: ArrayLike<{ readonly lon: number; readonly lat: number }>, needs: GridNeeds): Promise<HeldBlocks | null> {
    if (this.store.complete) return null;
    const held = new Map<number, GridBlock>();
    for (;;) {
      const missing = new Set<number>();
      const walk: GridBlockView = (key) => {
        let block = held.get(key);
        if (block !== undefined) return block;
        block = this.store.peek(key);
        if (block !== undefined) {
          held.set(key, block);
          return block;
        }
        missing.add(key);
        return standIn;
      };
      for (let n = 0; n < points.length; n++) {
        const { lon, lat } = points[n];
        if (needs.value) this.sample(lon, lat, walk);
        if (needs.terrain) this.terrain(lon, lat, walk);
      }
      if (missing.size === 0) return held;
      for (const [key, block] of await this.store.load([...missing])) held.set(key, block);
    }
  }

  /** A view of blocks `hold` answered (null: the resident blocks). */
  viewOf(held: HeldBlocks | null): GridBlockView {
    if (held === null) return this.residentView;
    return (key) => {
      const block = held.get(key);
      if (block !== undefined) return block;
      throw new GridBlocksNotLoadedError(this.source, key);
    };
  }

  sample(lon: number, lat: number, view: GridBlockView = this.residentView): GridSample {
    const at = this.at;
    let covered = false;
    for (const tile of this.tilesAt(lon, lat)) {
      if (!tile.locate(lon, lat, at)) continue;
      covered = true;
      const value = this.sampleTile(tile, at.fx, at.fy, view);
      if (!Number.isNaN(value)) return { value };
    }
    return covered ? 'no_data' : 'outside';
  }

  terrain(lon: number, lat: number, view: GridBlockView = this.residentView): TerrainSample | 'outside' | 'no_data' {
    const at = this.at;
    let covered = false;
    for (const tile of this.tilesAt(lon, lat)) {
      if (!tile.locate(lon, lat, at)) continue;
      covered = true;
      const col = Math.min(Math.floor(at.fx), tile.width - 1);
      const row = Math.min(Math.floor(at.fy), tile.height - 1);
      const centre = tile.cell(col, row, view);
      if (Number.isNaN(centre)) continue;
      return this.horn(tile, col, row, centre, view);
    }
    return covered ? 'no_data' : 'outside';
  }

  private sampleTile(tile: GridTile, fx: number, fy: number, view: GridBlockView): number {
    const col = Math.min(Math.floor(fx), tile.width - 1);
    const row = Math.min(Math.floor(fy), tile.height - 1);
    const gx = fx - 0.5;
    const gy = fy - 0.5;
    const c0 = Math.floor(gx);
    const r0 = Math.floor(gy);
    const tx = gx - c0;
    const ty = gy - r0;
    const v00 = this.cellOrEdge(tile, c0, r0, view);
    const v10 = this.cellOrEdge(tile, c0 + 1, r0, view);
    const v01 = this.cellOrEdge(tile, c0, r0 + 1, view);
    const v11 = this.cellOrEdge(tile, c0 + 1, r0 + 1, view);
    if (Number.isNaN(v00) || Number.isNaN(v10) || Number.isNaN(v01) || Number.isNaN(v11)) return tile.cell(col, row, view);
    const top = v00 + (v10 - v00) * tx;
    const bottom = v01 + (v11 - v01) * tx;
    return top + (bottom - top) * ty;
  }

  private horn(tile: GridTile, col: number, row: number, centre: number, view: GridBlockView): TerrainSample {
    const near = (dc: number, dr: number) => {
      const value = this.beyond(tile, col + dc, row + dr, view) ?? centre;
      return Number.isNaN(value) ? centre : value;
    };
    const a = near(-1, -1);
    const b = near(0, -1);
    const c = near(1, -1);
    const d = near(-1, 0);
    const f = near(1, 0);
    const g = near(-1, 1);
    const h = near(0, 1);
    const i = near(1, 1);
    const perCol = (c + 2 * f + i - (a + 2 * d + g)) / 8;
    const perRow = (g + 2 * h + i - (a + 2 * b + c)) / 8;
    // A projected grid's axes are taken as east and north (its meridian convergence, a degree or
    // two inside a UTM zone, is ignored).
    const [eastPerCol, northPerRow] = tile.metresPerCell(col, row);
    const dzEast = perCol / eastPerCol;
    const dzNorth = perRow / northPerRow;
    const slopeDegrees = (Math.atan(Math.hypot(dzEast, dzNorth)) * 180) / Math.PI;
    if (dzEast === 0 && dzNorth === 0) return { slopeDegrees, aspectDegrees: null };
    // The aspect is the direction the slope faces: downhill, i.e. against the gradient.
    const aspect = (Math.atan2(-dzEast, -dzNorth) * 180) / Math.PI;
    return { slopeDegrees, aspectDegrees: aspect < 0 ? aspect + 360 : aspect };
  }

  /** A cell of `tile`, past its edge read from the tile beyond, or the nearest edge cell when no tile is there. */
  private cellOrEdge(tile: GridTile, col: number, row: number, view: GridBlockView): number {
    const value = this.beyond(tile, col, row, view);
    if (value !== undefined) return value;
    // Past the mosaic's edge: the edge cell, one axis at a time (a cell above the top row and
    // beside this tile repeats the top row of the tile beside it, as one grid would).
    const edgeCol = Math.min(Math.max(col, 0), tile.width - 1);
    const edgeRow = Math.min(Math.max(row, 0), tile.height - 1);
    return this.beyond(tile, col, edgeRow, view) ?? this.beyond(tile, edgeCol, row, view) ?? tile.cell(edgeCol, edgeRow, view);
  }

  /** A cell of `tile` (NaN: no data); past its edge, the value of the cell of another tile under its centre; undefined when none is. */
  private beyond(tile: GridTile, col: number, row: number, view: GridBlockView): number | undefined {
    if (tile.has(col, row)) return tile.cell(col, row, view);
    const [x, y] = tile.centreNative(col, row);
    const at: TilePosition = { fx: 0, fy: 0 };
    const [lon, lat] = tile.toWgs84(x, y);
    for (const other of this.tilesAt(lon, lat)) {
      if (other === tile) continue;
      const inside = other.crsKey === tile.crsKey ? other.locateNative(x, y, at) : other.locate(lon, lat, at);
      if (!inside) continue;
      const c = Math.floor(at.fx);
      const r = Math.floor(at.fy);
      if (other.has(c, r)) return other.cell(c, r, view);
    }
    return undefined;
  }

  /** The tiles whose bounds hold the point, in answering order. */
  private tilesAt(lon: number, lat: number): readonly GridTile[] {
    if (this.tree === null) return this.tiles;
    const found = this.tree.search(lon, lat, lon, lat);
    found.sort((a, b) => a - b);
    return found.map((i) => this.tiles[i]);
  }
}

/** Finest first; of one resolution, the later in name order first. */
function answeringOrder(tiles: readonly GridTile[]): GridTile[] {
  const oneCrs = tiles.every((tile) => tile.crsKey === tiles[0].crsKey);
  const size = (tile: GridTile) => (oneCrs ? Math.abs(tile.dx * tile.dy) : tile.cellAreaM2());
  const ranked = tiles.map((tile, nameOrder) => ({ tile, nameOrder, size: size(tile) }));
  // Sizes within 1 % of the finest of a run are one resolution: a total order (sorting by a
  // tolerance directly would not be transitive).
  ranked.sort((a, b) => a.size - b.size);
  let classStart = 0;
  const resolutionClass = new Map<GridTile, number>();
  ranked.forEach((entry, i) => {
    if (entry.size > ranked[classStart].size * (1 + SAME_RESOLUTION)) classStart = i;
    resolutionClass.set(entry.tile, classStart);
  });
  ranked.sort((a, b) => resolutionClass.get(a.tile)! - resolutionClass.get(b.tile)! || b.nameOrder - a.nameOrder);
  return ranked.map((entry) => entry.tile);
}

const COMPASS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;

/** The compass point of an aspect: 45° sectors centred on N, NE, … (N is 337.5° to 22.5°). */
export function compassPoint(aspectDegrees: number): (typeof COMPASS)[number] {
  return COMPASS[Math.round(aspectDegrees / 45) % 8];
}
