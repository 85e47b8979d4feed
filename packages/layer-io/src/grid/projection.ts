// A grid's coordinates and WGS84 longitude/latitude, both ways, and the ground size of its cells:
// what locating a point among the cells of a grid kept on its native CRS takes (the cells
// themselves are not needed, so a tile whose cells load block by block has one too).

import proj4 from 'proj4';
import { isWgs84, type Crs } from '../crs/crs.js';
import { registerDefinitions } from '../crs/definitions.js';
import type { GeoTransform } from './types.js';

export interface GridProjection {
  /** WGS84 longitude/latitude in the grid's CRS (the coordinates of its geotransform). */
  toNative(lon: number, lat: number): [number, number];
  /** The grid's coordinates to WGS84 longitude/latitude. */
  toWgs84(x: number, y: number): [number, number];
  /** WGS84 longitude/latitude of a cell's centre. */
  cellCentre(col: number, row: number): [number, number];
  /** Metres between this cell's centre and its right (dx) and lower (dy) neighbour's: for slopes. */
  cellSizeMetres(col: number, row: number): [number, number];
}

const EARTH_RADIUS_M = 6_371_008.8;

export function gridProjection(grid: { crs: Crs; geoTransform: GeoTransform }): GridProjection {
  const t = grid.geoTransform;
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
  const cellCentre = (col: number, row: number): [number, number] => toWgs84(t[0] + (col + 0.5) * t[1], t[3] + (row + 0.5) * t[5]);
  return {
    toNative,
    toWgs84,
    cellCentre,
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
