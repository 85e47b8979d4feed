// One raster of a grid layer, on its own native grid: a GeoTIFF tile of a DEM, say. It knows
// where a WGS84 point falls among its cells (through its CRS when it has one), its cells' ground
// size for slopes, and how its cells are cut into blocks; the cells themselves come through a
// block view (grid-blocks.ts).

import type { GridBlockView } from './grid-blocks.js';
import { rulerAt } from './geodesy.js';
import { LayerBuildError } from './errors.js';

export interface GridTileInput {
  /** The tile's name (its file), for messages. */
  readonly name?: string;
  readonly width: number;
  readonly height: number;
  /** [minLon, minLat, maxLon, maxLat] of the outer cell edges; or give `geotransform`. */
  readonly bbox?: readonly [number, number, number, number];
  /** GDAL order: [originX, cellWidth, 0, originY, 0, cellHeight (negative: north-up)], in the tile's CRS. */
  readonly geotransform?: readonly [number, number, number, number, number, number];
  /** A value that means no data, beside NaN. */
  readonly noData?: number | null;
  /**
   * For a tile kept in its native CRS: WGS84 lon/lat to the geotransform's coordinates, and back.
   * Absent: the geotransform or bbox is in WGS84 degrees.
   */
  readonly project?: (lon: number, lat: number) => readonly [number, number];
  readonly unproject?: (x: number, y: number) => readonly [number, number];
  /** Tiles with the same key share coordinates (the same CRS): no projection between them. */
  readonly crsKey?: string;
  /** Ground size of a cell in meters [across, down]; absent: from degrees at the cell's latitude. */
  readonly cellSizeM?: (col: number, row: number) => readonly [number, number];
  /** WGS84 bounds, for finding the tiles under a point; absent: from the geotransform (degrees only). */
  readonly wgs84Bounds?: readonly [number, number, number, number];
  /** Key of the tile's block (0, 0); block (bx, by) is firstBlock + by · blocksAcross + bx. Default 0. */
  readonly firstBlock?: number;
}

/** Fractional cell coordinates of a point in a tile (written by `GridTile.locate`). */
export interface TilePosition {
  fx: number;
  fy: number;
}

export class GridTile {
  readonly name: string;
  readonly width: number;
  readonly height: number;
  readonly x0: number;
  readonly dx: number;
  readonly y0: number;
  readonly dy: number;
  readonly crsKey: string;
  readonly bounds: readonly [number, number, number, number];
  readonly blockSize: number;
  readonly blocksAcross: number;
  readonly blocksDown: number;
  readonly firstBlock: number;
  private readonly lastBlockWidth: number;
  private readonly noData: number;
  private readonly project: GridTileInput['project'];
  private readonly unproject: GridTileInput['unproject'];
  private readonly cellSizeM: GridTileInput['cellSizeM'];

  constructor(source: string, input: GridTileInput, blockSize: number) {
    const { width, height } = input;
    this.name = input.name ?? 'grid';
    const what = `grid of ${source}${input.name === undefined ? '' : ` (${input.name})`}`;
    if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0)) {
      throw new LayerBuildError(`${what}: width and height must be positive integers`, null);
    }
    if (input.geotransform) {
      const [x0, dx, rx, y0, ry, dy] = input.geotransform;
      if (rx !== 0 || ry !== 0) throw new LayerBuildError(`${what}: rotated geotransforms are not supported`, null);
      [this.x0, this.dx, this.y0, this.dy] = [x0, dx, y0, dy];
    } else if (input.bbox) {
      const [minLon, minLat, maxLon, maxLat] = input.bbox;
      [this.x0, this.dx, this.y0, this.dy] = [minLon, (maxLon - minLon) / width, maxLat, -(maxLat - minLat) / height];
    } else {
      throw new LayerBuildError(`${what}: a bbox or a geotransform is required`, null);
    }
    if (!(this.dx !== 0 && this.dy !== 0 && Number.isFinite(this.dx) && Number.isFinite(this.dy))) {
      throw new LayerBuildError(`${what}: cell size must be finite and non-zero`, null);
    }
    if (!(Number.isInteger(blockSize) && blockSize > 0)) throw new LayerBuildError(`${what}: block size must be a positive integer`, null);
    this.width = width;
    this.height = height;
    this.project = input.project;
    this.unproject = input.unproject;
    this.cellSizeM = input.cellSizeM;
    this.crsKey = input.crsKey ?? (input.project ? `projected:${this.name}` : 'EPSG:4326');
    this.blockSize = blockSize;
    this.blocksAcross = Math.ceil(width / blockSize);
    this.blocksDown = Math.ceil(height / blockSize);
    this.lastBlockWidth = width - (this.blocksAcross - 1) * blockSize;
    this.firstBlock = input.firstBlock ?? 0;
    // Float32 storage rounds the declared nodata the same way it rounded the cells; NaN matches nothing.
    this.noData = input.noData === null || input.noData === undefined ? NaN : Math.fround(input.noData);
    this.bounds = input.wgs84Bounds ?? this.degreeBounds();
  }

  /** Where the WGS84 point falls among the cells (fractional), written into `at`; false off the tile. */
  locate(lon: number, lat: number, at: TilePosition): boolean {
    let x = lon;
    let y = lat;
    if (this.project) [x, y] = this.project(lon, lat);
    return this.locateNative(x, y, at);
  }

  /** As `locate`, from coordinates in the tile's own CRS. */
  locateNative(x: number, y: number, at: TilePosition): boolean {
    const fx = (x - this.x0) / this.dx;
    const fy = (y - this.y0) / this.dy;
    at.fx = fx;
    at.fy = fy;
    return fx >= 0 && fx <= this.width && fy >= 0 && fy <= this.height;
  }

  /** A cell's value through `view`; NaN for no data. The cell must be on the tile. */
  cell(col: number, row: number, view: GridBlockView): number {
    const size = this.blockSize;
    const bx = (col / size) | 0;
    const by = (row / size) | 0;
    const block = view(this.firstBlock + by * this.blocksAcross + bx);
    if (block === null) return NaN;
    const blockWidth = bx === this.blocksAcross - 1 ? this.lastBlockWidth : size;
    const value = block[(row - by * size) * blockWidth + (col - bx * size)];
    return value === this.noData ? NaN : value;
  }

  /** The key of the block holding a cell on the tile. */
  blockOf(col: number, row: number): number {
    return this.firstBlock + ((row / this.blockSize) | 0) * this.blocksAcross + ((col / this.blockSize) | 0);
  }

  /** Whether a cell index lies on the tile. */
  has(col: number, row: number): boolean {
    return col >= 0 && row >= 0 && col < this.width && row < this.height;
  }

  /** A cell centre in the tile's own CRS. */
  centreNative(col: number, row: number): [number, number] {
    return [this.x0 + (col + 0.5) * this.dx, this.y0 + (row + 0.5) * this.dy];
  }

  /** Coordinates in the tile's CRS to WGS84 lon/lat. */
  toWgs84(x: number, y: number): readonly [number, number] {
    return this.unproject ? this.unproject(x, y) : [x, y];
  }

  /** Meters per column eastwards and per row northwards at a cell (signed by the grid's direction). */
  metresPerCell(col: number, row: number): [number, number] {
    if (this.cellSizeM) {
      const [across, down] = this.cellSizeM(col, row);
      return [Math.sign(this.dx) * across, Math.sign(this.dy) * down];
    }
    const ruler = rulerAt(this.y0 + (row + 0.5) * this.dy);
    return [this.dx * ruler.kx, this.dy * ruler.ky];
  }

  /** Ground area of a cell near the tile's centre, in m²: which of two overlapping tiles is finer. */
  cellAreaM2(): number {
    const [across, down] = this.metresPerCell(this.width >> 1, this.height >> 1);
    return Math.abs(across * down);
  }

  private degreeBounds(): [number, number, number, number] {
    if (this.project) return [-180, -90, 180, 90];
    const xs = [this.x0, this.x0 + this.width * this.dx];
    const ys = [this.y0, this.y0 + this.height * this.dy];
    return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  }
}
