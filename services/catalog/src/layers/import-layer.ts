import { importsInFlight } from '@landscreen/telemetry';
import path from 'node:path';
import { liftTimeouts } from '@landscreen/db';
import type { LayerSource, SourceId } from '@landscreen/field-catalog';
import { detectFormat, LayerReadError, type GdalChoice, type ImportLimits, type LayerFormat, type VectorLayerFormat } from '@landscreen/layer-io';
import type { CatalogDb } from '../schema.js';
import { featureChunksInParts } from './feature-chunks-in-parts.js';
import { importFiles } from './grid-files.js';
import { layerSourceNamed, propertyMap } from './import-arguments.js';
import { ImportCancelledError } from './import-cancelled.js';
import { importGrid } from './import-grid.js';
import { LayerImportError } from './layer-import-error.js';
import { featureFilter } from './source-semantics.js';
import { completeVersion, insertChunk, insertVersion } from './version-rows.js';

export interface ImportLayerOptions {
  source: string;
  /** A file, or (for a grid source) several GeoTIFF tiles or folders of them, stored as one version. */
  file: string | readonly string[];
  format?: LayerFormat;
  /** `--map attr=property,...` as typed. */
  map?: string;
  name?: string;
  /** Most cells a grid version may hold (LAYER_MAX_CELLS; default DEFAULT_MAX_CELLS). */
  maxCells?: number;
  /** Cells a stored grid block has a side (default GRID_BLOCK_SIZE; tests use small ones). */
  gridBlockSize?: number;
  /** `--layer`, `--sheet`, `--header-row` of multi-layer files and spreadsheets (D38). */
  layer?: string;
  sheet?: string;
  headerRow?: number;
  /** Which GDAL reads FileGDB (default: gdal-bin where installed, else gdal3.js). */
  gdal?: GdalChoice;
  /** `--where` as typed: which of the file's features to load, on its own attribute names. */
  where?: string;
  /** What a vector import may hold (LAYER_MAX_FEATURES and the rest; default DEFAULT_IMPORT_LIMITS). */
  limits?: Partial<ImportLimits>;
  /** Worker threads reading a GeoPackage in parallel (default: up to 2, by the cores and the file's size). */
  readers?: number;
  /**
   * Aborted when the caller goes away (Ctrl-C, a killed CLI, a closed connection): reading stops,
   * the transaction rolls back, and nothing becomes current.
   */
  signal?: AbortSignal;
  /** Features (or cells) stored so far and the share of the file read, when known. */
  onProgress?(progress: { features: number; fraction?: number }): void;
}

export interface ImportLayerResult {
  versionId: string;
  source: SourceId;
  geometry: LayerSource['geometry'];
  /** Features of a vector layer, cells of a grid. */
  features: number;
  bbox: [number, number, number, number] | null;
}

/**
 * Loads a layer file as a new version of its source in ONE transaction (D37): the
 * version exists, and so becomes current, only once the whole file is stored; a bad feature, a
 * feature of the wrong geometry kind or a crash leaves no version row and no chunk behind.
 * Vector features stream into chunks, and grids window by window (import-grid.ts), so memory
 * stays flat whatever the file size. A grid version may be several GeoTIFF tiles.
 */
export async function importLayer(db: CatalogDb, options: ImportLayerOptions): Promise<ImportLayerResult> {
  const declaration = layerSourceNamed(options.source);
  // Checked here too, so a bad --map or --where is refused before a worker starts.
  propertyMap(declaration, options.map);
  featureFilter(declaration, options.where);
  const { files, name: defaultName } = await importFiles(options.file, { gridTiles: declaration.geometry === 'grid' });
  if (files.length > 1 && declaration.geometry !== 'grid') {
    throw new LayerImportError(`${declaration.id} is a ${declaration.geometry} source: it loads one file per version, not ${files.length}`);
  }
  const formats = await Promise.all(files.map(async (file) => options.format ?? (await fileFormat(file))));
  for (const [i, format] of formats.entries()) {
    if ((format === 'geotiff') === (declaration.geometry === 'grid')) continue;
    throw new LayerImportError(
      declaration.geometry === 'grid'
        ? `${files[i]}: ${declaration.id} is a grid source: it loads a single-band GeoTIFF, not ${format}`
        : `${declaration.id} is a ${declaration.geometry} source: a GeoTIFF grid cannot feed it`,
    );
  }
  const name = options.name ?? defaultName;
  const kind = declaration.geometry === 'grid' ? 'grid' : 'vector';
  importsInFlight.inc({ kind });
  try {
    if (declaration.geometry === 'grid') {
      const { onProgress, maxCells, gridBlockSize: blockSize, signal } = options;
      const grid = await importGrid(db, declaration, { files, name, maxCells, blockSize, signal, onProgress });
      return { versionId: grid.versionId, source: declaration.id, geometry: 'grid', features: grid.cells, bbox: grid.bbox };
    }
    return await importFeatures(db, declaration, files[0], formats[0] as VectorLayerFormat, name, options);
  } catch (error) {
    if (error instanceof LayerReadError) throw new LayerImportError(error.message);
    throw error;
  } finally {
    importsInFlight.dec({ kind });
  }
}

async function fileFormat(file: string): Promise<LayerFormat> {
  try {
    return await detectFormat(file);
  } catch (error) {
    if (error instanceof LayerReadError) throw new LayerImportError(error.message);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new LayerImportError(`${file}: no such file`);
    throw error;
  }
}

async function importFeatures(
  db: CatalogDb,
  declaration: LayerSource,
  file: string,
  format: VectorLayerFormat,
  name: string,
  options: ImportLayerOptions,
): Promise<ImportLayerResult> {
  const { signal } = options;
  const chunks = featureChunksInParts(
    {
      source: declaration.id,
      file,
      format,
      map: options.map,
      where: options.where,
      limits: options.limits,
      layer: options.layer,
      sheet: options.sheet,
      headerRow: options.headerRow,
      gdal: options.gdal,
      readers: options.readers,
    },
    signal,
  );
  return db.transaction().execute(async (trx) => {
    await liftTimeouts(trx);
    const versionId = await insertVersion(trx, declaration, name, format, path.basename(file));
    let count = 0;
    // The workers read the next chunks while this thread stores one: the readers' CPU, this
    // thread's and the server's (parsing, TOAST compression, WAL) overlap.
    for (;;) {
      const next = await chunks.next();
      if (next.done) {
        const { bbox, crs } = next.value;
        throwIfCancelled(signal);
        await completeVersion(trx, versionId, count, bbox, crs, null);
        options.onProgress?.({ features: count, fraction: 1 });
        return { versionId, source: declaration.id, geometry: declaration.geometry, features: count, bbox };
      }
      const { data, features, fraction, chunkNo } = next.value;
      await insertChunk(trx, versionId, chunkNo, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
      // One turn of the event loop between inserts: an embedded database answers in microtasks, so
      // without it a reader that keeps ahead would starve every request (and the cancel) until the end.
      await new Promise((resolve) => setImmediate(resolve));
      throwIfCancelled(signal);
      count += features;
      options.onProgress?.({ features: count, fraction });
    }
  }).finally(() => chunks.return(undefined as never));
}

function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ImportCancelledError();
}
