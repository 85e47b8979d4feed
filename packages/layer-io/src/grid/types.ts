// A single-band grid as read from a GeoTIFF: plain data (storable as is, the transform rebuilt
// from `crs.definition`), kept on its native grid. Resampling to a WGS84 grid would blur values
// and cost memory; a lookup projects the point into the grid's CRS instead (grid/locator.ts).

import type { BBox } from '@landscreen/parcel-io';
import type { Crs } from '../crs/crs.js';

/** GDAL order, in the grid's CRS, at cell corners: x = t[0] + col·t[1], y = t[3] + row·t[5] (t[2], t[4] are 0: no rotation). */
export type GeoTransform = [number, number, number, number, number, number];

export interface LayerGrid {
  width: number;
  height: number;
  /** Row-major, row 0 first (the top edge, north for north-up grids): cell (col, row) is values[row * width + col]. */
  values: Float32Array;
  /** The value that means "no data", when the file declares one; NaN cells mean no data too. */
  noData: number | null;
  crs: Crs;
  geoTransform: GeoTransform;
  /** WGS84 bounds of the whole grid (its edges densified and reprojected). */
  bbox: BBox;
}
