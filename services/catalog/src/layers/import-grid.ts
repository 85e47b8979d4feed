// A grid layer version from one or more GeoTIFF tiles, in ONE transaction, window by window:
// every file's header is checked first (each refusal names the file and leaves the current
// version as it is), then each tile is read a window at a time and cut into square blocks of
// cells, each stored as a chunk as soon as it is read — memory is bounded by a window, whatever
// the size of the set. No data is stored as NaN; a block with no data at all is not stored.
// Tiles keep their own native grid and CRS: nothing is resampled.

import path from 'node:path';
import { liftTimeouts } from '@landscreen/db';
import type { LayerSource } from '@landscreen/field-catalog';
import { LayerReadError, openGrid, type CellLimit, type GridFile, type GridWindow } from '@landscreen/layer-io';
import type { CatalogDb } from '../schema.js';
import { fileNameOf } from './grid-files.js';
import { ImportCancelledError } from './import-cancelled.js';
import { LayerImportError } from './layer-import-error.js';
import { completeVersion, insertChunks, insertVersion } from './version-rows.js';
import type { StoredGridTile, TiledGridMeta } from './grid-meta.js';

/** Cells a block has a side: 256 KiB of float32, what the engine loads to answer a point. */
export const GRID_BLOCK_SIZE = 256;
/** LAYER_MAX_CELLS's default: 2 GB of float32 cells in one version. */
export const DEFAULT_MAX_CELLS = 500_000_000;
/** Blocks written per statement. */
const BLOCKS_PER_INSERT = 16;
/** Cells one window of a file holds at most (32 MiB of float32). */
const WINDOW_CELLS = 8 << 20;

export interface ImportGridOptions {
  files: readonly string[];
  name: string;
  /** Most cells the version may hold (all its tiles together); named LAYER_MAX_CELLS in refusals. */
  maxCells?: number;
  /** Cells a stored block has a side (tests use small ones, to have many blocks). */
  blockSize?: number;
  /** Aborted when the caller goes away: the import stops at the next window and rolls back. */
  signal?: AbortSignal;
  onProgress?(progress: { features: number; fraction?: number }): void;
}

export interface ImportedGrid {
  versionId: string;
  cells: number;
  bbox: [number, number, number, number];
}

export async function importGrid(db: CatalogDb, declaration: LayerSource, options: ImportGridOptions): Promise<ImportedGrid> {
  const limit: CellLimit = { max: options.maxCells ?? DEFAULT_MAX_CELLS, setting: 'LAYER_MAX_CELLS' };
  const blockSize = options.blockSize ?? GRID_BLOCK_SIZE;
  const opened: GridFile[] = [];
  try {
    for (const file of options.files) opened.push(await openGrid(file, { cellLimit: limit }));
    const total = opened.reduce((sum, grid) => sum + grid.header.width * grid.header.height, 0);
    if (total > limit.max) {
      throw new LayerImportError(
        `the ${opened.length} files hold ${total.toLocaleString('en-US')} cells together, more than LAYER_MAX_CELLS ` +
          `(${limit.max.toLocaleString('en-US')}); raise LAYER_MAX_CELLS, or import fewer tiles`,
      );
    }
    return await db.transaction().execute(async (trx) => {
      await liftTimeouts(trx);
      const versionId = await insertVersion(trx, declaration, options.name, 'geotiff', fileNameOf(options.files));
      const tiles: StoredGridTile[] = [];
      let nextChunk = 0;
      let cellsRead = 0;
      let blocksStored = 0;
      for (const grid of opened) {
        const { header } = grid;
        const blocksAcross = Math.ceil(header.width / blockSize);
        const firstChunk = nextChunk;
        nextChunk += blocksAcross * Math.ceil(header.height / blockSize);
        let pending: [number, Buffer][] = [];
        for await (const window of grid.windows({ alignTo: blockSize, maxCells: WINDOW_CELLS })) {
          for (const block of blocksOf(window, blockSize, header.noData)) {
            pending.push([firstChunk + block.by * blocksAcross + block.bx, block.data]);
            if (pending.length >= BLOCKS_PER_INSERT) {
              await insertChunks(trx, versionId, pending);
              blocksStored += pending.length;
              pending = [];
            }
          }
          if (options.signal?.aborted) throw new ImportCancelledError();
          cellsRead += window.width * window.height;
          options.onProgress?.({ features: cellsRead, fraction: cellsRead / total });
        }
        await insertChunks(trx, versionId, pending);
        blocksStored += pending.length;
        const { width, height, crs, geoTransform, bbox, noData } = header;
        tiles.push({ file: path.basename(header.file), width, height, crs, geoTransform, bbox: [...bbox] as StoredGridTile['bbox'], firstChunk, noData });
      }
      const meta: TiledGridMeta = { blockSize, tiles, blocksStored, cellBytes: storedCellBytes(tiles, blockSize, blocksStored) };
      const bbox = unionOf(tiles.map((tile) => tile.bbox));
      await completeVersion(trx, versionId, total, bbox, crsLabelOf(tiles), meta);
      return { versionId, cells: total, bbox };
    });
  } catch (error) {
    if (error instanceof LayerReadError) throw new LayerImportError(error.message);
    throw error;
  } finally {
    await Promise.all(opened.map((grid) => grid.close()));
  }
}

interface Block {
  bx: number;
  by: number;
  data: Buffer;
}

/** The blocks of an aligned window, no data as NaN; blocks holding no data at all are left out. */
function* blocksOf(window: GridWindow, size: number, noData: number | null): Generator<Block> {
  const noDataValue = noData === null ? NaN : Math.fround(noData);
  for (let r0 = 0; r0 < window.height; r0 += size) {
    for (let c0 = 0; c0 < window.width; c0 += size) {
      const width = Math.min(size, window.width - c0);
      const height = Math.min(size, window.height - r0);
      const cells = new Float32Array(width * height);
      let data = false;
      for (let r = 0; r < height; r++) {
        const from = (r0 + r) * window.width + c0;
        for (let c = 0; c < width; c++) {
          const value = window.values[from + c];
          if (Number.isNaN(value) || value === noDataValue) cells[r * width + c] = NaN;
          else {
            cells[r * width + c] = value;
            data = true;
          }
        }
      }
      if (!data) continue;
      yield { bx: (window.col + c0) / size, by: (window.row + r0) / size, data: Buffer.from(cells.buffer, cells.byteOffset, cells.byteLength) };
    }
  }
}

/** Bytes the stored blocks' cells take in memory (edge blocks are smaller; an estimate from full ones is close enough beside the real count of blocks). */
function storedCellBytes(tiles: readonly StoredGridTile[], size: number, blocksStored: number): number {
  const allBlocks = tiles.reduce((sum, tile) => sum + Math.ceil(tile.width / size) * Math.ceil(tile.height / size), 0);
  const allCells = tiles.reduce((sum, tile) => sum + tile.width * tile.height, 0);
  return allBlocks === 0 ? 0 : Math.round((allCells * 4 * blocksStored) / allBlocks);
}

function unionOf(boxes: readonly [number, number, number, number][]): [number, number, number, number] {
  return boxes.reduce(
    (union, box) => [Math.min(union[0], box[0]), Math.min(union[1], box[1]), Math.max(union[2], box[2]), Math.max(union[3], box[3])],
    [Infinity, Infinity, -Infinity, -Infinity],
  );
}

/** The CRS the version's files were in: one label, or each distinct one. */
function crsLabelOf(tiles: readonly StoredGridTile[]): string {
  return [...new Set(tiles.map((tile) => tile.crs.label))].join(', ');
}
