// A stored layer version back into a point-engine index. Chunks are read a page at a time, so
// the rows in flight stay small next to the index they build. A tiled grid is not read here: its
// blocks load as evaluations need them (grid-block-cache.ts), unless the whole grid is small
// enough to hold (then all of it is read now, and evaluations never wait on the database).

import type { SourceId } from '@landscreen/field-catalog';
import { createGridLocator, gridProjection, isWgs84, type LayerGrid } from '@landscreen/layer-io';
import {
  buildGridLayer,
  buildGridMosaic,
  ResidentBlocks,
  type GridBlock,
  type GridBlockStore,
  type GridLayerIndex,
  type GridTileInput,
  type LayerIndex,
} from '@landscreen/point-engine';
import { decodeBlock, decodeCellsInto } from './chunk-codec.js';
import type { GridBlockCache } from './grid-block-cache.js';
import type { CatalogDb } from '../schema.js';
import { VectorLoad } from './vector-builds.js';
import { isTiledGrid, type StoredGridMeta, type StoredGridTile, type TiledGridMeta, type WholeGridMeta } from './grid-meta.js';
import type { LayerVersionRow } from './versions.js';

// Two chunks (about half a megabyte) per statement: PGlite runs each statement on the thread that
// answers requests, and decodes the rows there, so a page is one uninterrupted stretch of its work.
const CHUNKS_PER_PAGE = 2;

export interface GridLoading {
  /** Where tiled grids' blocks are cached. */
  blocks: GridBlockCache;
  /** Tiled grids whose cells take at most this many bytes are read whole when loaded. */
  wholeGridBytes: number;
}

/** How vector versions are built. */
export interface VectorLoading {
  /** Versions storing more than this many bytes are decoded and indexed on a worker thread (vector-builds.ts). */
  offThreadBytes: number;
}

export async function loadLayerIndex(db: CatalogDb, version: LayerVersionRow, grids: GridLoading, vectors: VectorLoading): Promise<LayerIndex> {
  const source = version.source as SourceId;
  if (version.grid !== null) {
    const meta = version.grid;
    if (isTiledGrid(meta)) {
      const resident = meta.cellBytes <= grids.wholeGridBytes ? await readAllBlocks(db, version.id) : null;
      return gridLayerIndex({ source, version: version.id, meta, bbox: version.bbox, values: null, resident }, grids.blocks);
    }
    // On a SharedArrayBuffer: prepare's engine workers share the cells rather than copy them (layer-snapshot.ts).
    const values = new Float32Array(new SharedArrayBuffer(meta.width * meta.height * 4));
    let offset = 0;
    await forEachChunk(db, version.id, (_, data) => (offset = decodeCellsInto(values, offset, data)));
    return gridLayerIndex({ source, version: version.id, meta, bbox: version.bbox, values, resident: null }, grids.blocks);
  }
  const load = new VectorLoad(source, version.id, vectors.offThreadBytes);
  try {
    await forEachChunk(db, version.id, (_, data) => load.add(data));
  } catch (error) {
    load.abandon();
    throw error;
  }
  return load.finish();
}

/** What a grid layer index is made of (its stored metadata, and the cells it holds), as layer snapshots carry it. */
export interface GridLayerParts {
  source: SourceId;
  version: string;
  meta: StoredGridMeta;
  bbox: [number, number, number, number] | null;
  /** A grid stored whole (row-major, no tiles): all its cells. */
  values: Float32Array | null;
  /** A tiled grid read whole: every stored block by chunk number (null: blocks load on demand). */
  resident: Map<number, GridBlock> | null;
}

const gridParts = new WeakMap<GridLayerIndex, GridLayerParts>();

/** The parts a grid index was made of (undefined for one not made by gridLayerIndex). */
export function gridPartsOf(index: GridLayerIndex): GridLayerParts | undefined {
  return gridParts.get(index);
}

/**
 * A grid layer index from its stored metadata and cells: tiles located through their CRS, blocks
 * from `blocks` (the process's cache, or, in a prepare worker, none: the blocks come with each page).
 */
export function gridLayerIndex(parts: GridLayerParts, blocks: GridBlockCache | null): GridLayerIndex {
  const { meta } = parts;
  const index = isTiledGrid(meta) ? tiledIndex(parts, meta, blocks) : wholeIndex(parts, meta);
  gridParts.set(index, parts);
  return index;
}

function wholeIndex(parts: GridLayerParts, meta: WholeGridMeta): GridLayerIndex {
  const values = parts.values!;
  const grid: LayerGrid = { ...meta, values, bbox: parts.bbox ?? [-180, -90, 180, 90] };
  const locator = createGridLocator(grid);
  const native = isWgs84(meta.crs);
  return buildGridLayer(parts.source, parts.version, {
    width: meta.width,
    height: meta.height,
    geotransform: meta.geoTransform,
    noData: meta.noData,
    values,
    project: native ? undefined : (lon, lat) => locator.toNative(lon, lat),
    cellSizeM: native ? undefined : (col, row) => locator.cellSizeMetres(col, row),
  });
}

function tiledIndex(parts: GridLayerParts, meta: TiledGridMeta, blocks: GridBlockCache | null): GridLayerIndex {
  let store: GridBlockStore;
  if (parts.resident !== null) store = new ResidentBlocks(parts.resident);
  else if (blocks !== null) store = blocks.storeFor(parts.version);
  else store = HANDED_OVER;
  return buildGridMosaic(parts.source, parts.version, { tiles: meta.tiles.map(tileInput), blockSize: meta.blockSize, blocks: store });
}

function tileInput(tile: StoredGridTile): GridTileInput {
  const native = isWgs84(tile.crs);
  const projection = native ? null : gridProjection(tile);
  return {
    name: tile.file,
    width: tile.width,
    height: tile.height,
    geotransform: tile.geoTransform,
    // Stored as NaN.
    noData: null,
    firstBlock: tile.firstChunk,
    crsKey: tile.crs.definition,
    wgs84Bounds: tile.bbox,
    project: projection?.toNative,
    unproject: projection?.toWgs84,
    cellSizeM: projection?.cellSizeMetres,
  };
}

/** In a prepare worker: no database; the main thread sends the blocks each page reads. */
const HANDED_OVER: GridBlockStore = {
  complete: false,
  peek: () => undefined,
  load: () => Promise.reject(new Error('grid blocks are handed over with each page in this worker; none can be loaded here')),
};

async function readAllBlocks(db: CatalogDb, versionId: string): Promise<Map<number, GridBlock>> {
  const blocks = new Map<number, GridBlock>();
  await forEachChunk(db, versionId, (chunkNo, data) => blocks.set(chunkNo, decodeBlock(data)));
  return blocks;
}

async function forEachChunk(db: CatalogDb, versionId: string, take: (chunkNo: number, data: Uint8Array) => void): Promise<void> {
  for (let after = -1; ; ) {
    const rows = await db
      .selectFrom('layer_chunks')
      .select(['chunk_no', 'data'])
      .where('version_id', '=', versionId)
      .where('chunk_no', '>', after)
      .orderBy('chunk_no')
      .limit(CHUNKS_PER_PAGE)
      .execute();
    for (const row of rows) take(row.chunk_no, row.data);
    if (rows.length < CHUNKS_PER_PAGE) return;
    after = rows[rows.length - 1].chunk_no;
  }
}
