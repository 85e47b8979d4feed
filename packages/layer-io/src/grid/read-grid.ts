// readGrid: a single-band GeoTIFF read whole into memory (for small grids: the demo's, tests).
// Imports read window by window instead (openGrid), so that memory is bounded by the window.

import { LayerReadError } from '../errors.js';
import { openGrid, type CellLimit } from './open-grid.js';
import type { LayerGrid } from './types.js';

export interface ReadGridOptions {
  cellLimit?: CellLimit;
  onProgress?: (progress: { bytesRead: number; totalBytes: number }) => void;
}

export async function readGrid(path: string, options: ReadGridOptions = {}): Promise<LayerGrid> {
  const file = await openGrid(path, { cellLimit: options.cellLimit });
  try {
    const { header } = file;
    const values = new Float32Array(header.width * header.height);
    for await (const window of file.windows()) {
      for (let r = 0; r < window.height; r++) {
        values.set(window.values.subarray(r * window.width, (r + 1) * window.width), (window.row + r) * header.width + window.col);
      }
    }
    options.onProgress?.({ bytesRead: header.bytes, totalBytes: header.bytes });
    const { width, height, noData, crs, geoTransform, bbox } = header;
    return { width, height, values, noData, crs, geoTransform, bbox };
  } catch (error) {
    if (error instanceof LayerReadError) throw error;
    throw new LayerReadError(path, `not a readable GeoTIFF: ${(error as Error).message}`);
  } finally {
    await file.close();
  }
}
