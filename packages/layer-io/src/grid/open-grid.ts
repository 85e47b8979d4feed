// openGrid: a single-band GeoTIFF (plain, tiled, Cloud-Optimized or BigTIFF; any compression and
// predictor geotiff.js decodes) opened for reading window by window, so that memory is bounded by
// the window, not the raster. Everything that can be refused is refused here, from the header and
// the tile tables alone, before a cell is read: no TIFF, no cells, more cells than the limit, more
// than one band, no georeferencing or a rotated one, an unknown CRS, and tiles or strips whose
// bytes lie past the end of the file (a truncated download).

import { stat } from 'node:fs/promises';
import { fromFile, type GeoTIFF, type GeoTIFFImage } from 'geotiff';
import { transformToWgs84, type Crs } from '../crs/crs.js';
import { CrsError, LayerReadError, errorMessage } from '../errors.js';
import { registerDecoders } from './decoders.js';
import { crsFromGeoKeys } from './geokeys.js';
import type { GeoTransform, GridHeader, GridLayout, GridWindow } from './types.js';
import type { BBox } from '@landscreen/parcel-io';

const PIXEL_IS_POINT = 2;
/** TIFF tag 317 (Predictor), which geotiff.js's types do not list as read eagerly. */
const PREDICTOR_TAG = 317;
/** Points per edge when reprojecting the bounds: a projected edge is curved in lon/lat. */
const EDGE_SAMPLES = 64;
/** Cells a window holds at most when the caller does not say (32 MiB of float32). */
const DEFAULT_WINDOW_CELLS = 8 << 20;

export interface CellLimit {
  /** Most cells a grid (or a set of them) may hold. */
  max: number;
  /** The setting that raises it, named in the refusal (e.g. LAYER_MAX_CELLS). */
  setting: string;
}

export interface OpenGridOptions {
  /** Refuses a file whose header claims more cells, before anything is read. */
  cellLimit?: CellLimit;
}

export interface WindowOptions {
  /** Windows start on multiples of this and span multiples of it (but at the right and bottom edges). Default 1. */
  alignTo?: number;
  /** Cells a window holds at most (whole rows of aligned blocks are kept together when they fit). */
  maxCells?: number;
}

export interface GridFile {
  readonly header: GridHeader;
  /** The whole grid, window by window, top to bottom, left to right. */
  windows(options?: WindowOptions): AsyncGenerator<GridWindow, void, undefined>;
  /** One rectangle of cells. */
  read(col: number, row: number, width: number, height: number): Promise<GridWindow>;
  close(): Promise<void>;
}

export async function openGrid(path: string, options: OpenGridOptions = {}): Promise<GridFile> {
  registerDecoders();
  let tiff: GeoTIFF;
  try {
    tiff = await fromFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new LayerReadError(path, 'no such file');
    throw new LayerReadError(path, `not a readable GeoTIFF: ${errorMessage(error)}`);
  }
  try {
    const bytes = (await stat(path)).size;
    const image = await firstImage(path, tiff);
    const header = await readHeader(path, image, bytes, options);
    header.layout.bigTiff = (tiff as unknown as { bigTiff?: boolean }).bigTiff === true;
    const empty = await emptyBlocksOf(path, image, bytes);
    header.layout.emptyBlocks = empty.size;
    return gridFile(path, tiff, image, header, empty);
  } catch (error) {
    await tiff.close();
    if (error instanceof LayerReadError) throw error;
    throw new LayerReadError(path, `not a readable GeoTIFF: ${errorMessage(error)}`);
  }
}

async function firstImage(path: string, tiff: GeoTIFF): Promise<GeoTIFFImage> {
  try {
    return await tiff.getImage(0);
  } catch (error) {
    throw new LayerReadError(path, `not a readable GeoTIFF: ${errorMessage(error)}`);
  }
}

async function readHeader(path: string, image: GeoTIFFImage, bytes: number, options: OpenGridOptions): Promise<GridHeader> {
  const width = image.getWidth();
  const height = image.getHeight();
  if (!(width > 0 && height > 0)) {
    throw new LayerReadError(path, `the GeoTIFF holds no cells (${width} × ${height}); export the raster again`);
  }
  const cells = width * height;
  const limit = options.cellLimit;
  if (limit !== undefined && cells > limit.max) {
    throw new LayerReadError(
      path,
      `its header claims ${width.toLocaleString('en-US')} × ${height.toLocaleString('en-US')} = ${cells.toLocaleString('en-US')} cells, ` +
        `more than ${limit.setting} (${limit.max.toLocaleString('en-US')}); raise ${limit.setting} if the raster is genuine, or clip it (gdal_translate -projwin)`,
    );
  }
  const bands = image.getSamplesPerPixel();
  if (bands !== 1) {
    throw new LayerReadError(path, `the GeoTIFF has ${bands} bands; a grid layer needs a single band (gdal_translate -b 1 keeps the first)`);
  }
  let crs: Crs;
  try {
    crs = crsFromGeoKeys(image.getGeoKeys());
  } catch (error) {
    if (error instanceof CrsError) throw new LayerReadError(path, error.message);
    throw error;
  }
  const geoTransform = geoTransformOf(path, image);
  const directory = image.getFileDirectory();
  const layout: GridLayout = {
    tiled: image.isTiled,
    blockWidth: image.getTileWidth(),
    blockHeight: image.getTileHeight(),
    compression: Number(directory.getValue('Compression') ?? 1),
    predictor: Number((await directory.loadValue(PREDICTOR_TAG)) ?? 1),
    bigTiff: false,
    emptyBlocks: 0,
  };
  return {
    file: path,
    width,
    height,
    noData: image.getGDALNoData(),
    crs,
    geoTransform,
    bbox: wgs84Bounds(path, crs, geoTransform, width, height),
    bytes,
    layout,
  };
}

/**
 * Checks every tile or strip against the file's size (one read of the offset and byte-count
 * tables), and answers the blocks that have no bytes at all: a GDAL sparse file's, which hold no
 * data. A block reaching past the end means the file was cut short: refused, since the cells it
 * would hold are unknown, and a grid that silently answered there would be wrong.
 */
async function emptyBlocksOf(path: string, image: GeoTIFFImage, fileBytes: number): Promise<Set<number>> {
  const directory = image.getFileDirectory();
  const [offsetsTag, countsTag] = image.isTiled ? (['TileOffsets', 'TileByteCounts'] as const) : (['StripOffsets', 'StripByteCounts'] as const);
  const offsets = (await directory.loadValue(offsetsTag)) as ArrayLike<number | bigint> | undefined;
  const counts = (await directory.loadValue(countsTag)) as ArrayLike<number | bigint> | undefined;
  if (offsets === undefined || counts === undefined || offsets.length !== counts.length) {
    throw new LayerReadError(path, `the GeoTIFF has no ${offsetsTag}/${countsTag} tables it can be read by`);
  }
  const empty = new Set<number>();
  const kind = image.isTiled ? 'tile' : 'strip';
  for (let i = 0; i < offsets.length; i++) {
    const count = Number(counts[i]);
    if (count === 0) {
      empty.add(i);
      continue;
    }
    const end = Number(offsets[i]) + count;
    if (end > fileBytes) {
      throw new LayerReadError(
        path,
        `the file is truncated: ${kind} ${i + 1} of ${offsets.length} ends at byte ${end.toLocaleString('en-US')}, past the end of the file ` +
          `(${fileBytes.toLocaleString('en-US')} bytes); download or copy it again`,
      );
    }
  }
  return empty;
}

function gridFile(path: string, tiff: GeoTIFF, image: GeoTIFFImage, header: GridHeader, emptyBlocks: ReadonlySet<number>): GridFile {
  const { width, height, layout } = header;
  const blocksAcross = Math.ceil(width / layout.blockWidth);
  const read = async (col: number, row: number, w: number, h: number): Promise<GridWindow> => {
    let raster;
    try {
      raster = await image.readRasters({ window: [col, row, col + w, row + h], samples: [0], interleave: true });
    } catch (error) {
      throw new LayerReadError(path, `cells ${col},${row} to ${col + w - 1},${row + h - 1} cannot be decoded: ${errorMessage(error)}`);
    }
    const values = raster instanceof Float32Array ? raster : Float32Array.from(raster as ArrayLike<number>);
    if (emptyBlocks.size > 0) blankEmptyBlocks(values, { col, row, width: w, height: h });
    return { col, row, width: w, height: h, values };
  };
  // A block without bytes holds no data, whatever geotiff.js filled it with (0 without GDAL_NODATA).
  const blankEmptyBlocks = (values: Float32Array, window: Omit<GridWindow, 'values'>): void => {
    const bw = layout.blockWidth;
    const bh = layout.blockHeight;
    for (let by = Math.floor(window.row / bh); by * bh < window.row + window.height; by++) {
      for (let bx = Math.floor(window.col / bw); bx * bw < window.col + window.width; bx++) {
        if (!emptyBlocks.has(by * blocksAcross + bx)) continue;
        const r0 = Math.max(by * bh, window.row) - window.row;
        const r1 = Math.min((by + 1) * bh, window.row + window.height) - window.row;
        const c0 = Math.max(bx * bw, window.col) - window.col;
        const c1 = Math.min((bx + 1) * bw, window.col + window.width) - window.col;
        for (let r = r0; r < r1; r++) values.fill(NaN, r * window.width + c0, r * window.width + c1);
      }
    }
  };
  return {
    header,
    read,
    async *windows(options = {}) {
      const align = Math.max(1, Math.floor(options.alignTo ?? 1));
      const maxCells = Math.max(align * align, options.maxCells ?? DEFAULT_WINDOW_CELLS);
      // Rows: whole blocks of the file, rounded up to the alignment, so each block is decoded once
      // per column window; columns: as many aligned blocks as the cell budget allows.
      const fileRows = Math.ceil(Math.min(layout.blockHeight, height) / align) * align;
      const rows = Math.max(align, Math.min(fileRows, Math.floor(maxCells / align / align) * align));
      const cols = Math.max(align, Math.min(Math.ceil(width / align) * align, Math.floor(maxCells / rows / align) * align));
      for (let row = 0; row < height; row += rows) {
        for (let col = 0; col < width; col += cols) {
          yield read(col, row, Math.min(cols, width - col), Math.min(rows, height - row));
        }
      }
    },
    close: async () => {
      await tiff.close();
    },
  };
}

function geoTransformOf(path: string, image: GeoTIFFImage): GeoTransform {
  const directory = image.getFileDirectory();
  const tiepoint = directory.getValue('ModelTiepoint') as number[] | undefined;
  const scale = directory.getValue('ModelPixelScale') as number[] | undefined;
  const matrix = directory.getValue('ModelTransformation') as number[] | undefined;
  let transform: GeoTransform;
  if (tiepoint !== undefined && tiepoint.length >= 6 && scale !== undefined) {
    const [i, j, , x, y] = tiepoint;
    const [sx, sy] = scale;
    transform = [x - i * sx, sx, 0, y + j * sy, 0, -sy];
  } else if (matrix !== undefined && matrix.length >= 8) {
    if (matrix[1] !== 0 || matrix[4] !== 0) throw new LayerReadError(path, 'the GeoTIFF grid is rotated (ModelTransformation); warp it north-up first (gdalwarp)');
    transform = [matrix[3], matrix[0], 0, matrix[7], 0, matrix[5]];
  } else {
    throw new LayerReadError(path, 'the GeoTIFF has no georeferencing (ModelTiepoint/ModelPixelScale or ModelTransformation)');
  }
  if (!(transform[1] !== 0 && transform[5] !== 0 && transform.every(Number.isFinite))) {
    throw new LayerReadError(path, `the GeoTIFF's cell size is ${transform[1]} × ${-transform[5]}: not a usable grid`);
  }
  // A point-registered grid's tiepoint is a cell centre; the transform is at corners (as GDAL).
  if (image.getGeoKeys()?.GTRasterTypeGeoKey === PIXEL_IS_POINT) {
    transform[0] -= transform[1] / 2;
    transform[3] -= transform[5] / 2;
  }
  return transform;
}

function wgs84Bounds(path: string, crs: Crs, t: GeoTransform, width: number, height: number): BBox {
  const toWgs84 = transformToWgs84(crs);
  const bounds: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  const add = (col: number, row: number): void => {
    const x = t[0] + col * t[1];
    const y = t[3] + row * t[5];
    const [lon, lat] = toWgs84 === null ? [x, y] : toWgs84(x, y);
    if (!(lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90)) {
      throw new LayerReadError(path, `the grid corner or edge [${x}, ${y}] in ${crs.label} is out of range after reprojection to WGS84`);
    }
    bounds[0] = Math.min(bounds[0], lon);
    bounds[1] = Math.min(bounds[1], lat);
    bounds[2] = Math.max(bounds[2], lon);
    bounds[3] = Math.max(bounds[3], lat);
  };
  for (let k = 0; k <= EDGE_SAMPLES; k++) {
    const f = k / EDGE_SAMPLES;
    add(f * width, 0);
    add(f * width, height);
    add(0, f * height);
    add(width, f * height);
  }
  return bounds;
}
