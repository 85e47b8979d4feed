import { importsInFlight } from '@landscreen/telemetry';
import path from 'node:path';
import { liftTimeouts } from '@landscreen/db';
import type { LayerSource, SourceId } from '@landscreen/field-catalog';
import {
  describePosition,
  detectFormat,
  LayerReadError,
  readLayer,
  type GdalChoice,
  type ImportLimits,
  type WherePredicate,
  type LayerFeature,
  type LayerFormat,
  type PropertyMap,
  type VectorLayerFormat,
} from '@landscreen/layer-io';
import type { Geometry } from '@landscreen/point-engine';
import type { CatalogDb } from '../schema.js';
import { encodeFeatures, FEATURES_PER_CHUNK } from './chunk-codec.js';
import { BoundsAccumulator } from './bounds.js';
import { importFiles } from './grid-files.js';
import { layerSourceNamed, propertyMap } from './import-arguments.js';
import { importGrid } from './import-grid.js';
import { LayerImportError } from './layer-import-error.js';
import { featureFilter, patternChecker } from './source-semantics.js';
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

const ACCEPTED: Record<LayerSource['geometry'], readonly string[]> = {
  points: ['Point', 'MultiPoint'],
  lines: ['LineString', 'MultiLineString'],
  polygons: ['Polygon', 'MultiPolygon'],
  mixed: ['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon'],
  grid: [],
};

/**
 * Loads a layer file as a new version of its source in ONE transaction (issue 12, D37): the
 * version exists, and so becomes current, only once the whole file is stored; a bad feature, a
 * feature of the wrong geometry kind or a crash leaves no version row and no chunk behind.
 * Vector features stream into chunks, and grids window by window (import-grid.ts), so memory
 * stays flat whatever the file size. A grid version may be several GeoTIFF tiles.
 */
export async function importLayer(db: CatalogDb, options: ImportLayerOptions): Promise<ImportLayerResult> {
  const declaration = layerSourceNamed(options.source);
  const map = propertyMap(declaration, options.map);
  const where = featureFilter(declaration, options.where);
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
      const { onProgress, maxCells, gridBlockSize: blockSize } = options;
      const grid = await importGrid(db, declaration, { files, name, maxCells, blockSize, onProgress });
      return { versionId: grid.versionId, source: declaration.id, geometry: 'grid', features: grid.cells, bbox: grid.bbox };
    }
    return await importFeatures(db, declaration, files[0], formats[0] as VectorLayerFormat, name, map, where, options);
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
  map: PropertyMap | undefined,
  where: WherePredicate | undefined,
  options: ImportLayerOptions,
): Promise<ImportLayerResult> {
  const accepted = ACCEPTED[declaration.geometry];
  const declared = declaration.properties.map((property) => property.name);
  const checkPatterns = patternChecker(file, declaration, new Map([...(map ?? new Map<string, string>())].map(([attribute, property]) => [property, attribute])));
  let fraction: number | undefined;
  const features = readLayer(file, {
    format,
    map,
    where,
    limits: options.limits,
    layer: options.layer,
    sheet: options.sheet,
    headerRow: options.headerRow,
    gdal: options.gdal,
    onProgress: (progress) => (fraction = progress.totalBytes > 0 ? progress.bytesRead / progress.totalBytes : undefined),
  });
  return db.transaction().execute(async (trx) => {
    await liftTimeouts(trx);
    const versionId = await insertVersion(trx, declaration, name, format, path.basename(file));
    const bounds = new BoundsAccumulator();
    let chunk: [Geometry, Record<string, unknown>][] = [];
    let chunkNo = 0;
    let count = 0;
    let crs = 'EPSG:4326';
    // One chunk's insert stays in flight while the next chunk is read, so the reader's CPU and the
    // server's (parsing, TOAST compression, WAL) overlap; the previous insert is awaited before the
    // next is sent, so at most two chunks are held. A failed insert surfaces at that await.
    let inFlight: Promise<void> = Promise.resolve();
    const flush = async () => {
      if (chunk.length === 0) return;
      const data = encodeFeatures(chunk);
      const stored = chunk.length;
      chunk = [];
      await inFlight;
      inFlight = insertChunk(trx, versionId, chunkNo++, data).then(() => {
        count += stored;
        options.onProgress?.({ features: count, fraction });
      });
      inFlight.catch(() => {});
      // One turn of the event loop, so the insert's bytes leave for the server before reading goes on.
      await new Promise((resolve) => setImmediate(resolve));
    };
    let read = 0;
    for await (const feature of features) {
      if (!accepted.includes(feature.geometry.type)) throw wrongGeometry(file, declaration, feature);
      crs = feature.crs;
      bounds.add(feature.geometry as Geometry);
      const kept = declaredProperties(feature.properties, declared);
      checkPatterns?.(kept, feature.position);
      chunk.push([feature.geometry as Geometry, kept]);
      read++;
      if (chunk.length >= FEATURES_PER_CHUNK) await flush();
    }
    // An empty layer would answer every field of the source as if nothing were there: refused,
    // and the current version stays current.
    if (read === 0) throw noFeatures(file, declaration, where !== undefined);
    await flush();
    await inFlight;
    const bbox = bounds.bbox();
    await completeVersion(trx, versionId, count, bbox, crs, null);
    options.onProgress?.({ features: count, fraction: 1 });
    return { versionId, source: declaration.id, geometry: declaration.geometry, features: count, bbox };
  });
}

function noFeatures(file: string, declaration: LayerSource, filtered: boolean): LayerImportError {
  const which = filtered ? ` that pass ${declaration.filter === undefined ? '--where' : `${declaration.id}'s filter (${declaration.filter.meaning}) and --where`}` : '';
  return new LayerImportError(`${file}: the file holds no features${which}; an empty layer cannot replace ${declaration.id}'s current version`);
}

function wrongGeometry(file: string, declaration: LayerSource, feature: LayerFeature): LayerImportError {
  return new LayerImportError(
    `${file}: ${describePosition(feature.position)}: a ${feature.geometry.type} cannot feed ${declaration.id}, a ${declaration.geometry} source`,
  );
}

/** Only what the source's evaluators read is stored: the rest of a file's attributes is dead weight. */
function declaredProperties(properties: Record<string, unknown>, declared: readonly string[]): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const name of declared) if (Object.hasOwn(properties, name) && properties[name] !== undefined) kept[name] = properties[name];
  return kept;
}
