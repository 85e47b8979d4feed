// A grid layer's metadata as its version row stores it (`layer_versions.grid`, jsonb).

import type { Crs, GeoTransform } from '@landscreen/layer-io';

/**
 * A grid's metadata in its version row (`grid` jsonb). A tiled grid (`tiles`) stores each tile's
 * cells in square blocks of `blockSize` cells, one chunk each, no data as NaN; a block that holds
 * no data at all has no chunk. A grid without `tiles` (a layout stored versions may still have)
 * is one raster, its cells row-major in chunks of CELLS_PER_CHUNK, loaded whole.
 */
export type StoredGridMeta = TiledGridMeta | WholeGridMeta;

export interface WholeGridMeta {
  width: number;
  height: number;
  noData: number | null;
  crs: Crs;
  geoTransform: GeoTransform;
}

export interface TiledGridMeta {
  blockSize: number;
  /** In name order (the order of their chunks). */
  tiles: StoredGridTile[];
  /** Chunks stored (blocks with data) and the bytes of their cells: what holding the grid whole takes. */
  blocksStored: number;
  cellBytes: number;
}

export interface StoredGridTile {
  /** The file's name. */
  file: string;
  width: number;
  height: number;
  crs: Crs;
  geoTransform: GeoTransform;
  /** WGS84 bounds of the tile. */
  bbox: [number, number, number, number];
  /** chunk_no of block (0, 0); block (bx, by) is chunk firstChunk + by · ceil(width / blockSize) + bx. */
  firstChunk: number;
  /** The file's GDAL_NODATA (stored as NaN), for the record. */
  noData: number | null;
}

export function isTiledGrid(meta: StoredGridMeta): meta is TiledGridMeta {
  return Array.isArray((meta as TiledGridMeta).tiles);
}
