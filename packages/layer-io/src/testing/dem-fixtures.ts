// Test helper: the DEM fixtures written by GDAL (packages/layer-io/fixtures/dem, made by hand with
// its make-fixtures.sh) and an answer key independent of every reader here: the smooth function
// the ASCII grids were sampled from, the ASCII grids themselves, and bilinear interpolation between
// their cell centres written out plainly.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEM_FIXTURES = fileURLToPath(new URL('../../fixtures/dem/', import.meta.url));

export const demFixture = (...parts: string[]): string => path.join(DEM_FIXTURES, ...parts);

/** An elevation-like surface in metres: a tilt plus hills about 8 km across. */
export function elevationModel(lon: number, lat: number): number {
  const x = lon + 98;
  const y = lat - 30;
  return 300 + 200 * x + 500 * y + 40 * Math.sin((2 * Math.PI * x) / 0.08) * Math.cos((2 * Math.PI * y) / 0.1);
}

/**
 * The mosaic: 64 × 64 cells of 0.0025° in EPSG:4269 from 98°W 30.16°N, cut by GDAL into four
 * 32 × 32 tiles (`tiles/dem_r{row}c{col}.tif`), each encoded differently. Cells (48..51, 40..43)
 * hold the nodata value -9999.
 */
export const MOSAIC = { west: -98, north: 30.16, cell: 0.0025, width: 64, height: 64, noData: -9999 } as const;

export const MOSAIC_HOLE = { col0: 48, row0: 40, size: 4 } as const;

/** WGS84 box of the mosaic's hole (its cells' outer edges). */
export function holeBounds(): [number, number, number, number] {
  const { west, north, cell } = MOSAIC;
  const { col0, row0, size } = MOSAIC_HOLE;
  return [west + col0 * cell, north - (row0 + size) * cell, west + (col0 + size) * cell, north - row0 * cell];
}

export interface AsciiGrid {
  ncols: number;
  nrows: number;
  xll: number;
  yll: number;
  cell: number;
  noData: number | null;
  /** Row-major, top row first. */
  values: Float64Array;
}

/** An ESRI ASCII grid (corner-registered, as make-fixtures.ts writes them). */
export function readAsciiGrid(file: string): AsciiGrid {
  const lines = readFileSync(file, 'utf8').split('\n');
  const header = new Map<string, number>();
  let line = 0;
  while (/^[a-z_]+\s/i.test(lines[line])) {
    const [key, value] = lines[line].trim().split(/\s+/);
    header.set(key.toLowerCase(), Number(value));
    line++;
  }
  const values = Float64Array.from(lines.slice(line).join(' ').trim().split(/\s+/), Number);
  return {
    ncols: header.get('ncols')!,
    nrows: header.get('nrows')!,
    xll: header.get('xllcorner')!,
    yll: header.get('yllcorner')!,
    cell: header.get('cellsize')!,
    noData: header.has('nodata_value') ? header.get('nodata_value')! : null,
    values,
  };
}

/**
 * The grid's value at (x, y) in its own coordinates: bilinear between the four cell centres
 * around the point, clamped at the edges; null off the grid or where any of the four is nodata.
 */
export function bilinearReference(grid: AsciiGrid, x: number, y: number): number | null {
  const top = grid.yll + grid.nrows * grid.cell;
  const fx = (x - grid.xll) / grid.cell;
  const fy = (top - y) / grid.cell;
  if (!(fx >= 0 && fx <= grid.ncols && fy >= 0 && fy <= grid.nrows)) return null;
  const gx = Math.min(Math.max(fx - 0.5, 0), grid.ncols - 1);
  const gy = Math.min(Math.max(fy - 0.5, 0), grid.nrows - 1);
  const c0 = Math.floor(gx);
  const r0 = Math.floor(gy);
  const c1 = Math.min(c0 + 1, grid.ncols - 1);
  const r1 = Math.min(r0 + 1, grid.nrows - 1);
  const at = (c: number, r: number) => grid.values[r * grid.ncols + c];
  const corners = [at(c0, r0), at(c1, r0), at(c0, r1), at(c1, r1)];
  if (corners.some((value) => value === grid.noData)) return null;
  const tx = gx - c0;
  const ty = gy - r0;
  const upper = corners[0] + (corners[1] - corners[0]) * tx;
  const lower = corners[2] + (corners[3] - corners[2]) * tx;
  return upper + (lower - upper) * ty;
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so failures can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
