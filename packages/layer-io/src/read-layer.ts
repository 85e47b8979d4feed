// readLayer: a vector layer file of any supported format as a stream of WGS84 features. Each
// format reader yields features in the file's CRS; this pipeline does what is common to all:
// refuse a feature without geometry, reproject, range-check, wind polygons as RFC 7946, rename
// properties (--map), and report progress. One feature at a time, so memory stays flat.

import { LayerReadError } from './errors.js';
import { detectFormat } from './format.js';
import { CoordinateError, geometryToWgs84 } from './geometry/to-wgs84.js';
import { windAsRfc7946 } from './geometry/winding.js';
import { checkFeature } from './limits/feature-limits.js';
import { importLimits, limitExceeded, type ImportLimits } from './limits/import-limits.js';
import { missingAttributes, renameProperties } from './property-map.js';
import type { FormatReader } from './readers/raw-feature.js';
import type { LayerFeature, ReadLayerOptions, VectorLayerFormat } from './types.js';

/** Progress is reported at most this often (in features) between byte-count changes. */
const PROGRESS_EVERY = 10_000;

export async function* readLayer(path: string, options: ReadLayerOptions = {}): AsyncGenerator<LayerFeature, void, undefined> {
  const format = options.format ?? (await vectorFormat(path));
  if (options.part !== undefined && format !== 'gpkg') throw new Error(`a ${format} file is read whole, not in parts`);
  const limits = importLimits(options.limits);
  const reader = await openReader(path, format, options, limits);
  const map = options.map ?? new Map<string, string>();
  const targets = new Set(map.values());
  const seen = new Set<string>();
  let features = 0;
  let reportedBytes = -1;
  const report = (force: boolean): void => {
    if (options.onProgress === undefined) return;
    if (!force && reader.bytes.bytesRead === reportedBytes && features % PROGRESS_EVERY !== 0) return;
    reportedBytes = reader.bytes.bytesRead;
    options.onProgress({ bytesRead: reader.bytes.bytesRead, totalBytes: reader.bytes.totalBytes, features });
  };

  for await (const raw of reader.features) {
    const { position } = raw;
    if (options.where !== undefined && !options.where(raw.properties)) continue;
    if (raw.geometry === null) throw new LayerReadError(path, 'the feature has no geometry (null or empty)', position);
    if (features >= limits.maxFeatures) {
      throw limitExceeded(path, 'maxFeatures', limits.maxFeatures, `the file holds more than ${limits.maxFeatures.toLocaleString('en-US')} features`, position);
    }
    checkFeature(path, raw.geometry, raw.properties, limits, position);
    let geometry;
    try {
      geometry = windAsRfc7946(geometryToWgs84(raw.geometry, raw.toWgs84, raw.crsLabel));
    } catch (error) {
      if (error instanceof CoordinateError) throw new LayerReadError(path, error.message, position);
      throw error;
    }
    let properties = raw.properties;
    if (map.size > 0) {
      if (features === 0 && reader.hasSchema) checkAttributes(path, missingAttributes(properties, map));
      if (!reader.hasSchema) for (const attribute of map.keys()) if (Object.hasOwn(properties, attribute)) seen.add(attribute);
      properties = renameProperties(properties, map, targets);
    }
    features++;
    yield { position, geometry, properties, crs: raw.crsLabel };
    report(false);
  }
  // Without a schema, an attribute is absent from the file only if no feature had it.
  if (!reader.hasSchema && features > 0) checkAttributes(path, [...map.keys()].filter((attribute) => !seen.has(attribute)));
  report(true);
}

/**
 * The one reader per format; each yields raw features in the file's CRS. Each loads with its
 * library when a file of its format is read: loading every one (exceljs, GDAL, SQLite in
 * WebAssembly) took a second of CPU in each import worker.
 */
async function openReader(path: string, format: VectorLayerFormat, options: ReadLayerOptions, limits: ImportLimits): Promise<FormatReader> {
  switch (format) {
    case 'shapefile':
      return (await import('./readers/shapefile.js')).readShapefile(path, limits);
    case 'gpkg':
      return (await import('./readers/geopackage.js')).readGeoPackage(path, options);
    case 'filegdb':
      return (await import('./readers/filegdb.js')).readFileGdb(path, options, limits);
    case 'flatgeobuf':
      return (await import('./readers/flatgeobuf.js')).readFlatGeobuf(path, options);
    case 'kml':
    case 'kmz':
      return (await import('./readers/kml.js')).readKml(path, format === 'kmz', options, limits);
    case 'xlsx':
      return (await import('./readers/xlsx.js')).readXlsx(path, options, limits);
    default:
      return (await import('./readers/line-based.js')).readLineBased(path, format, limits, options.chunkSize);
  }
}

async function vectorFormat(path: string): Promise<VectorLayerFormat> {
  const format = await detectFormat(path);
  if (format === 'geotiff') throw new LayerReadError(path, 'a GeoTIFF is a grid, not features: read it with readGrid');
  return format;
}

function checkAttributes(path: string, missing: string[]): void {
  if (missing.length === 0) return;
  const names = missing.map((name) => JSON.stringify(name)).join(', ');
  throw new LayerReadError(path, `--map names ${missing.length === 1 ? 'an attribute' : 'attributes'} the file does not have: ${names}`);
}
