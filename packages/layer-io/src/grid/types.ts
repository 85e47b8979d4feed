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

/** What a GeoTIFF's header says about its grid: everything but the cells. */
export interface GridHeader {
  /** The file, as given. */
  file: string;
  width: number;
  height: number;
  /** GDAL_NODATA, when the file declares it. */
  noData: number | null;
  crs: Crs;
  geoTransform: GeoTransform;
  /** WGS84 bounds (the edges densified and reprojected). */
  bbox: BBox;
  /** Bytes of the file. */
  bytes: number;
  /** How the cells are stored, for messages and for reading them window by window. */
  layout: GridLayout;
}

export interface GridLayout {
  tiled: boolean;
  /** A tile's size, or a strip's (the whole width, RowsPerStrip rows). */
  blockWidth: number;
  blockHeight: number;
  /** TIFF Compression (1 none, 5 LZW, 8 and 32946 DEFLATE, …) and Predictor (1 none, 2 horizontal, 3 floating point). */
  compression: number;
  predictor: number;
  bigTiff: boolean;
  /** Tiles or strips whose byte count is 0 (GDAL's sparse files): no data. */
  emptyBlocks: number;
}

/** A rectangle of a grid's cells, read: values row-major, no data as NaN or the declared value. */
export interface GridWindow {
  col: number;
  row: number;
  width: number;
  height: number;
  values: Float32Array;
}
