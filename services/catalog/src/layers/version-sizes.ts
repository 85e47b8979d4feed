// What each layer version takes: the bytes its chunks occupy in the database (after TOAST's
// compression), and the memory the engine needs to hold it. A vector layer is held whole; its
// in-memory size is not known without building it, so it is not given. A grid's cells take 4
// bytes each (only the blocks that hold data, for a tiled grid); a tiled grid larger than the
// whole-grid threshold is never held whole: the engine keeps the blocks it read recently, within
// its cache's budget (LAYER_GRID_CACHE_MB), shared by every grid.

import type { CatalogDb } from '../schema.js';
import { WHOLE_GRID_BYTES } from './layer-cache.js';
import { isTiledGrid } from './grid-meta.js';
import type { LayerVersionRow } from './versions.js';

export interface VersionSize {
  /** Bytes of the version's chunks as stored. */
  storedBytes: number;
  /** Bytes of memory holding the whole version takes; null when unknown (vector layers). */
  engineBytes: number | null;
  /** Whether the engine loads it block by block on demand rather than whole. */
  onDemand: boolean;
  /** Tiles of a grid (GeoTIFF files); 0 for a vector layer. */
  tiles: number;
}

/** Stored bytes per version id (a scan of the chunk rows, not of their TOASTed data). */
export async function storedBytesByVersion(db: CatalogDb): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('layer_chunks')
    .select((eb) => ['version_id', eb.cast<number>(eb.fn.sum(eb.fn('pg_column_size', ['data'])), 'bigint').as('bytes')])
    .groupBy('version_id')
    .execute();
  return new Map(rows.map((row) => [row.version_id, Number(row.bytes)]));
}

export function versionSize(version: LayerVersionRow, storedBytes: ReadonlyMap<string, number>): VersionSize {
  const stored = storedBytes.get(version.id) ?? 0;
  const meta = version.grid;
  if (meta === null) return { storedBytes: stored, engineBytes: null, onDemand: false, tiles: 0 };
  if (!isTiledGrid(meta)) return { storedBytes: stored, engineBytes: meta.width * meta.height * 4, onDemand: false, tiles: 1 };
  return { storedBytes: stored, engineBytes: meta.cellBytes, onDemand: meta.cellBytes > WHOLE_GRID_BYTES, tiles: meta.tiles.length };
}
