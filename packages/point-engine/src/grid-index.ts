// The index of one gridded layer version (a single band, as a single-band GeoTIFF gives it),
// georeferenced in WGS84 degrees by a bounding box or a north-up GDAL geotransform.
//
// Sampling: bilinear between the four cell centres around the point, because elevation and the
// other gridded sources are continuous fields and nearest-cell sampling would make values jump
// at cell edges; when one of the four is nodata, the value of the cell containing the point
// (nodata there answers null `no_data`). Slope and aspect: Horn's method on the 3x3 cells around
// the containing cell, with the cell size in meters at the point's latitude; neighbours off the
// grid or nodata take the centre's value (GDAL's -compute_edges behaviour).

import type { SourceId } from '@landscreen/field-catalog';
import { rulerAt } from './geodesy.js';
import { LayerBuildError } from './errors.js';

export interface GridInput {
  readonly width: number;
  readonly height: number;
  /** [minLon, minLat, maxLon, maxLat] of the outer cell edges; or give `geotransform`. */
  readonly bbox?: readonly [number, number, number, number];
  /** GDAL order: [originLon, cellWidth, 0, originLat, 0, cellHeight (negative: north-up)]. */
  readonly geotransform?: readonly [number, number, number, number, number, number];
  readonly noData?: number | null;
  /** Row-major, row 0 at the origin (the north edge when north-up). */
  readonly values: Float32Array | Float64Array;
  /**
   * For a grid kept in its native CRS (as layer-io reads GeoTIFFs): WGS84 lon/lat to the
   * geotransform's coordinates. Absent: the geotransform or bbox is in WGS84 degrees.
   */
  readonly project?: (lon: number, lat: number) => readonly [number, number];
  /** Ground size of a cell in meters [across, down]; absent: from degrees at the cell's latitude. */
  readonly cellSizeM?: (col: number, row: number) => readonly [number, number];
}

export type GridSample = { readonly value: number } | 'outside' | 'no_data';

export interface TerrainSample {
  readonly slopeDegrees: number;
  /** Clockwise from north, [0, 360); null on flat ground, where no direction is downhill. */
  readonly aspectDegrees: number | null;
}

export class GridLayerIndex {
  readonly kind = 'grid' as const;
  readonly width: number;
  readonly height: number;
  private readonly x0: number;
  private readonly dx: number;
  private readonly y0: number;
  private readonly dy: number;
  private readonly noData: number | null;
  private readonly values: Float32Array | Float64Array;
  private readonly project: GridInput['project'];
  private readonly cellSizeM: GridInput['cellSizeM'];

  constructor(
    readonly source: SourceId,
    readonly version: string,
    grid: GridInput,
  ) {
    const { width, height, values } = grid;
    if (!(Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0)) {
      throw new LayerBuildError(`grid of ${source}: width and height must be positive integers`, null);
    }
    if (values.length !== width * height) {
      throw new LayerBuildError(`grid of ${source}: ${values.length} values for ${width}x${height} cells`, null);
    }
    if (grid.geotransform) {
      const [x0, dx, rx, y0, ry, dy] = grid.geotransform;
      if (rx !== 0 || ry !== 0) throw new LayerBuildError(`grid of ${source}: rotated geotransforms are not supported`, null);
      [this.x0, this.dx, this.y0, this.dy] = [x0, dx, y0, dy];
    } else if (grid.bbox) {
      const [minLon, minLat, maxLon, maxLat] = grid.bbox;
      [this.x0, this.dx, this.y0, this.dy] = [minLon, (maxLon - minLon) / width, maxLat, -(maxLat - minLat) / height];
    } else {
      throw new LayerBuildError(`grid of ${source}: a bbox or a geotransform is required`, null);
    }
    if (!(this.dx !== 0 && this.dy !== 0 && Number.isFinite(this.dx) && Number.isFinite(this.dy))) {
      throw new LayerBuildError(`grid of ${source}: cell size must be finite and non-zero`, null);
    }
    this.width = width;
    this.height = height;
    this.values = values;
    this.project = grid.project;
    this.cellSizeM = grid.cellSizeM;
    // Float32 storage rounds the declared nodata the same way it rounded the cells.
    const noData = grid.noData ?? null;
    this.noData = noData === null ? null : values instanceof Float32Array ? Math.fround(noData) : noData;
  }

  private isNoData(value: number): boolean {
    return Number.isNaN(value) || value === this.noData;
  }

  /** Cell coordinates of the point (fractional), or null off the grid. */
  private locate(lon: number, lat: number): { fx: number; fy: number } | null {
    let x = lon;
    let y = lat;
    if (this.project) [x, y] = this.project(lon, lat);
    const fx = (x - this.x0) / this.dx;
    const fy = (y - this.y0) / this.dy;
    if (!(fx >= 0 && fx <= this.width && fy >= 0 && fy <= this.height)) return null;
    return { fx, fy };
  }

  private cell(col: number, row: number): number {
    return this.values[row * this.width + col];
  }

  /** A neighbour of a cell; off the grid or nodata, the centre's value. */
  private neighbour(col: number, row: number, dc: number, dr: number, centre: number): number {
    const c = col + dc;
    const r = row + dr;
    if (c < 0 || r < 0 || c >= this.width || r >= this.height) return centre;
    const value = this.cell(c, r);
    return this.isNoData(value) ? centre : value;
  }

  sample(lon: number, lat: number): GridSample {
    const at = this.locate(lon, lat);
    if (!at) return 'outside';
    const { width, height } = this;
    const col = Math.min(Math.floor(at.fx), width - 1);
    const row = Math.min(Math.floor(at.fy), height - 1);
    const gx = Math.min(Math.max(at.fx - 0.5, 0), width - 1);
    const gy = Math.min(Math.max(at.fy - 0.5, 0), height - 1);
    const c0 = Math.floor(gx);
    const r0 = Math.floor(gy);
    const c1 = Math.min(c0 + 1, width - 1);
    const r1 = Math.min(r0 + 1, height - 1);
    const tx = gx - c0;
    const ty = gy - r0;
    const v00 = this.cell(c0, r0);
    const v10 = this.cell(c1, r0);
    const v01 = this.cell(c0, r1);
    const v11 = this.cell(c1, r1);
    if (this.isNoData(v00) || this.isNoData(v10) || this.isNoData(v01) || this.isNoData(v11)) {
      const own = this.cell(col, row);
      return this.isNoData(own) ? 'no_data' : { value: own };
    }
    const top = v00 + (v10 - v00) * tx;
    const bottom = v01 + (v11 - v01) * tx;
    return { value: top + (bottom - top) * ty };
  }

  terrain(lon: number, lat: number): TerrainSample | 'outside' | 'no_data' {
    const at = this.locate(lon, lat);
    if (!at) return 'outside';
    const col = Math.min(Math.floor(at.fx), this.width - 1);
    const row = Math.min(Math.floor(at.fy), this.height - 1);
    const centre = this.cell(col, row);
    if (this.isNoData(centre)) return 'no_data';
    const a = this.neighbour(col, row, -1, -1, centre);
    const b = this.neighbour(col, row, 0, -1, centre);
    const c = this.neighbour(col, row, 1, -1, centre);
    const d = this.neighbour(col, row, -1, 0, centre);
    const f = this.neighbour(col, row, 1, 0, centre);
    const g = this.neighbour(col, row, -1, 1, centre);
    const h = this.neighbour(col, row, 0, 1, centre);
    const i = this.neighbour(col, row, 1, 1, centre);
    const perCol = (c + 2 * f + i - (a + 2 * d + g)) / 8;
    const perRow = (g + 2 * h + i - (a + 2 * b + c)) / 8;
    // Meters per column eastwards and per row northwards (negative for a north-up grid's rows).
    // A projected grid's axes are taken as east and north (its meridian convergence, a degree or
    // two inside a UTM zone, is ignored).
    let eastPerCol: number;
    let northPerRow: number;
    if (this.cellSizeM) {
      const [across, down] = this.cellSizeM(col, row);
      eastPerCol = Math.sign(this.dx) * across;
      northPerRow = Math.sign(this.dy) * down;
    } else {
      const ruler = rulerAt(this.y0 + (row + 0.5) * this.dy);
      eastPerCol = this.dx * ruler.kx;
      northPerRow = this.dy * ruler.ky;
    }
    const dzEast = perCol / eastPerCol;
    const dzNorth = perRow / northPerRow;
    const slopeDegrees = (Math.atan(Math.hypot(dzEast, dzNorth)) * 180) / Math.PI;
    if (dzEast === 0 && dzNorth === 0) return { slopeDegrees, aspectDegrees: null };
    // The aspect is the direction the slope faces: downhill, i.e. against the gradient.
    const aspect = (Math.atan2(-dzEast, -dzNorth) * 180) / Math.PI;
    return { slopeDegrees, aspectDegrees: aspect < 0 ? aspect + 360 : aspect };
  }
}

const COMPASS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;

/** The compass point of an aspect: 45° sectors centred on N, NE, … (N is 337.5° to 22.5°). */
export function compassPoint(aspectDegrees: number): (typeof COMPASS)[number] {
  return COMPASS[Math.round(aspectDegrees / 45) % 8];
}
