// Reading layer versions back: the current one per source (its latest, by `seq`) and the list.

import { sql } from 'kysely';
import type { Crs, GeoTransform } from '@landscreen/layer-io';
import type { CatalogDb } from '../schema.js';

export interface LayerVersionRow {
  id: string;
  seq: string;
  source: string;
  name: string;
  format: string;
  file_name: string;
  crs: string;
  geometry: string;
  feature_count: string | number;
  bbox: [number, number, number, number] | null;
  grid: StoredGridMeta | null;
  completed_at: Date | string;
}

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

export interface CurrentVersion {
  source: string;
  id: string;
  /** bigint as text. */
  seq: string;
}

/** The current version of every source that has one: one index-only scan per source. */
export async function currentVersions(db: CatalogDb): Promise<CurrentVersion[]> {
  // Ordered by the table's bigint column: a bare `seq` would name the text alias, and '9' > '10'.
  const { rows } = await sql<CurrentVersion>`
    select distinct on (source) source, id, seq::text as seq from catalog.layer_versions order by source, layer_versions.seq desc`.execute(db);
  return rows;
}

/** Every stored version, newest first. */
export async function listVersions(db: CatalogDb): Promise<LayerVersionRow[]> {
  const { rows } = await sql<LayerVersionRow>`select * from catalog.layer_versions order by seq desc`.execute(db);
  return rows;
}

export async function versionById(db: CatalogDb, id: string): Promise<LayerVersionRow | undefined> {
  const { rows } = await sql<LayerVersionRow>`select * from catalog.layer_versions where id = ${id}`.execute(db);
  return rows[0];
}

/** The current version row of every source that has one. */
export async function currentVersionRows(db: CatalogDb): Promise<LayerVersionRow[]> {
  const { rows } = await sql<LayerVersionRow>`
    select distinct on (source) * from catalog.layer_versions order by source, seq desc`.execute(db);
  return rows;
}
