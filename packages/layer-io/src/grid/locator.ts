// Point → cell on a grid kept in its native CRS: the WGS84 point is projected into the grid's CRS
// (the inverse of the file's transform) and divided by the cell size. Built from LayerGrid's
// plain data, so a grid loaded back from storage answers the same as the one just read.

import proj4 from 'proj4';
import { isWgs84 } from '../crs/crs.js';
import { registerDefinitions } from '../crs/definitions.js';
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

const EARTH_RADIUS_M = 6_371_008.8;

export function createGridLocator(grid: LayerGrid): GridLocator {
  const { width, height, values, noData, geoTransform: t } = grid;
  registerDefinitions();
  const converter = isWgs84(grid.crs) ? null : proj4('EPSG:4326', grid.crs.definition);
  const toNative = (lon: number, lat: number): [number, number] => {
    if (converter === null) return [lon, lat];
    const [x, y] = converter.forward([lon, lat]);
    return [x, y];
  };
  const toWgs84 = (x: number, y: number): [number, number] => {
    if (converter === null) return [x, y];
    const [lon, lat] = converter.inverse([x, y]);
    return [lon, lat];
  };
  const cellValue = (col: number, row: number): number | null => {
    if (col < 0 || row < 0 || col >= width || row >= height) return null;
    const value = values[row * width + col];
    return Number.isNaN(value) || (noData !== null && value === Math.fround(noData)) ? null : value;
  };
  const cellCentre = (col: number, row: number): [number, number] =>
    toWgs84(t[0] + (col + 0.5) * t[1], t[3] + (row + 0.5) * t[5]);
  const cellAt = (lon: number, lat: number): Cell | null => {
    const [x, y] = toNative(lon, lat);
    const col = Math.floor((x - t[0]) / t[1]);
    const row = Math.floor((y - t[3]) / t[5]);
    return col >= 0 && row >= 0 && col < width && row < height ? { col, row } : null;
  };
  return {
    toNative,
    cellAt,
    cellValue,
    cellCentre,
    valueAt(lon, lat) {
      const cell = cellAt(lon, lat);
      return cell === null ? null : cellValue(cell.col, cell.row);
    },
    cellSizeMetres(col, row) {
      const here = cellCentre(col, row);
      return [haversineMetres(here, cellCentre(col + 1, row)), haversineMetres(here, cellCentre(col, row + 1))];
    },
  };
}

function haversineMetres([lon1, lat1]: [number, number], [lon2, lat2]: [number, number]): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}
