// The CPU side of a vector import, with no database in it: a layer file read, reprojected,
// checked against the source's geometry kind, cut into encoded chunks, and the version's bounds,
// count and CRS summed up. It runs in a worker thread (read-features-worker.ts), so the thread
// that owns the database (and, embedded, answers requests) only stores the chunks it is handed.

import type { LayerSource } from '@landscreen/field-catalog';
import { describePosition, readLayer, type GdalChoice, type ImportLimits, type LayerFeature, type VectorLayerFormat } from '@landscreen/layer-io';
import type { Geometry } from '@landscreen/point-engine';
import { BoundsAccumulator } from './bounds.js';
import { encodeFeatures, FEATURES_PER_CHUNK, VERTICES_PER_CHUNK } from './chunk-codec.js';
import { layerSourceNamed, propertyMap } from './import-arguments.js';
import { LayerImportError } from './layer-import-error.js';
import { featureFilter, patternChecker } from './source-semantics.js';

/** What a worker is told to read: plain data, as it crosses the thread boundary. */
export interface FeatureReadRequest {
  source: string;
  file: string;
  format: VectorLayerFormat;
  /** `--map` as typed (checked again where it is read, against the same declaration). */
  map?: string;
  layer?: string;
  sheet?: string;
  headerRow?: number;
  gdal?: GdalChoice;
  /** `--where` as typed: which of the file's features to load, on its own attribute names. */
  where?: string;
  /** What a vector import may hold (LAYER_MAX_FEATURES and the rest; default DEFAULT_IMPORT_LIMITS). */
  limits?: Partial<ImportLimits>;
  /** Readers of a GeoPackage in parallel (feature-chunks-in-parts.ts); default: by the cores and the file's size. */
  readers?: number;
  /** The part of the file this reader takes (set by feature-chunks-in-parts.ts): its count may be 0. */
  part?: { index: number; of: number };
}

export interface EncodedChunk {
  data: Uint8Array;
  /** Features in this chunk. */
  features: number;
  /** The share of the file read when the chunk was cut, when the reader knows it. */
  fraction?: number;
}

export interface FeatureSummary {
  features: number;
  bbox: [number, number, number, number] | null;
  crs: string;
}

const ACCEPTED: Record<LayerSource['geometry'], readonly string[]> = {
  points: ['Point', 'MultiPoint'],
  lines: ['LineString', 'MultiLineString'],
  polygons: ['Polygon', 'MultiPolygon'],
  mixed: ['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon'],
  grid: [],
};

/** Yields the file's chunks in order; answers the summary once the file is read through. */
export async function* featureChunks(request: FeatureReadRequest): AsyncGenerator<EncodedChunk, FeatureSummary, undefined> {
  const declaration = layerSourceNamed(request.source);
  const accepted = ACCEPTED[declaration.geometry];
  const declared = declaration.properties.map((property) => property.name);
  const map = propertyMap(declaration, request.map);
  const where = featureFilter(declaration, request.where);
  const mappedFrom = new Map([...(map ?? new Map<string, string>())].map(([attribute, property]) => [property, attribute]));
  const checkPatterns = patternChecker(request.file, declaration, mappedFrom);
  let fraction: number | undefined;
  const features = readLayer(request.file, {
    format: request.format,
    map,
    where,
    limits: request.limits,
    layer: request.layer,
    sheet: request.sheet,
    headerRow: request.headerRow,
    gdal: request.gdal,
    part: request.part,
    onProgress: (progress) => (fraction = progress.totalBytes > 0 ? progress.bytesRead / progress.totalBytes : undefined),
  });
  const bounds = new BoundsAccumulator();
  let chunk: [Geometry, Record<string, unknown>][] = [];
  let count = 0;
  let vertices = 0;
  let crs = 'EPSG:4326';
  for await (const feature of features) {
    if (!accepted.includes(feature.geometry.type)) throw wrongGeometry(request.file, declaration, feature);
    crs = feature.crs;
    vertices += bounds.add(feature.geometry as Geometry);
    const kept = declaredProperties(feature.properties, declared);
    checkPatterns?.(kept, feature.position);
    chunk.push([feature.geometry as Geometry, kept]);
    if (chunk.length >= FEATURES_PER_CHUNK || vertices >= VERTICES_PER_CHUNK) {
      count += chunk.length;
      yield { data: encodeFeatures(chunk), features: chunk.length, fraction };
      chunk = [];
      vertices = 0;
    }
  }
  if (chunk.length > 0) {
    count += chunk.length;
    yield { data: encodeFeatures(chunk), features: chunk.length, fraction };
  }
  // An empty layer would answer every field of the source as if nothing were there: refused,
  // and the current version stays current.
  if (count === 0 && request.part === undefined) throw noFeatures(request.file, declaration, where !== undefined);
  return { features: count, bbox: bounds.bbox(), crs };
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
