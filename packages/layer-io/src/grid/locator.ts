// Point → cell on a grid kept in its native CRS: the WGS84 point is projected into the grid's CRS
// (the inverse of the file's transform) and divided by the cell size. Built from LayerGrid's
// plain data, so a grid loaded back from storage answers the same as the one just read.

import { gridProjection } from './projection.js';
import type { LayerGrid } from './types.js';

export interface Cell {
  col: number;
  row: number;
}

export interface GridLocator {
  /** WGS84 longitude/latitude in the grid's CRS (the coordinates of its geotransform). */
  toNative(lon: number, lat: number): [number, number];
  /** The cell holding the point, or null outside the grid. */
  cellAt(lon: number, lat: number): Cell | null;
  /** The cell's value at the point, or null outside the grid or where it holds no data. */
  valueAt(lon: number, lat: number): number | null;
  /** The value of a cell, or null for no data or a cell off the grid. */
  cellValue(col: number, row: number): number | null;
  /** WGS84 longitude/latitude of a cell's centre. */
  cellCentre(col: number, row: number): [number, number];
  /** Metres between this cell's centre and its right (dx) and lower (dy) neighbour's: for slopes. */
  cellSizeMetres(col: number, row: number): [number, number];
}

export function createGridLocator(grid: LayerGrid): GridLocator {
  const { width, height, values, noData, geoTransform: t } = grid;
  const projection = gridProjection(grid);
  const cellValue = (col: number, row: number): number | null => {
    if (col < 0 || row < 0 || col >= width || row >= height) return null;
    const value = values[row * width + col];
    return Number.isNaN(value) || (noData !== null && value === Math.fround(noData)) ? null : value;
  };
  const cellAt = (lon: number, lat: number): Cell | null => {
    const [x, y] = projection.toNative(lon, lat);
    const col = Math.floor((x - t[0]) / t[1]);
    const row = Math.floor((y - t[3]) / t[5]);
    return col >= 0 && row >= 0 && col < width && row < height ? { col, row } : null;
  };
  return {
    toNative: projection.toNative,
    cellAt,
    cellValue,
    cellCentre: projection.cellCentre,
    cellSizeMetres: projection.cellSizeMetres,
    valueAt(lon, lat) {
      const cell = cellAt(lon, lat);
      return cell === null ? null : cellValue(cell.col, cell.row);
    },
  };
}
