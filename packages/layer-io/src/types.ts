// The shapes every layer reader yields. Geometries are the GeoJSON subset parcel-io validates,
// always in WGS84 longitude/latitude once they leave this package, whatever the file's CRS.

import type { GeoJSONGeometry } from '@landscreen/parcel-io';
import type { FeaturePosition } from './feature-position.js';
import type { ImportLimits } from './limits/import-limits.js';

export type LayerFormat =
  | 'geojson'
  | 'ndjson'
  | 'csv'
  | 'shapefile'
  | 'gpkg'
  | 'filegdb'
  | 'flatgeobuf'
  | 'kml'
  | 'kmz'
  | 'xlsx'
  | 'geotiff';

/** Every format, in the order the refusal of an unknown file lists them. */
export const LAYER_FORMATS: readonly LayerFormat[] = ['geojson', 'ndjson', 'csv', 'shapefile', 'gpkg', 'filegdb', 'flatgeobuf', 'kml', 'kmz', 'xlsx', 'geotiff'];

/** The vector formats readLayer streams; a GeoTIFF is read whole by readGrid. */
export type VectorLayerFormat = Exclude<LayerFormat, 'geotiff'>;

export type { FeaturePosition } from './feature-position.js';

export interface LayerFeature {
  position: FeaturePosition;
  /** Validated, in WGS84 longitude/latitude; polygons wound as RFC 7946 asks (outer rings counter-clockwise). */
  geometry: GeoJSONGeometry;
  /** The file's attributes, renamed by the property map when one is given. */
  properties: Record<string, unknown>;
  /** The CRS the file gave the feature in, as it named it (provenance: what was reprojected). */
  crs: string;
}

export interface LayerProgress {
  /** Bytes of the file consumed so far (for a zipped Shapefile: uncompressed .shp and .dbf bytes). */
  bytesRead: number;
  totalBytes: number;
  /** Features yielded so far. */
  features: number;
}

export type LayerProgressListener = (progress: LayerProgress) => void;

/** File attribute → source property, as `--map attr=property,...` says. */
export type PropertyMap = ReadonlyMap<string, string>;

export interface ReadLayerOptions {
  /** Overrides the format detectFormat infers from the extension or the first bytes. */
  format?: VectorLayerFormat;
  map?: PropertyMap;
  onProgress?: LayerProgressListener;
  /** Bytes per read for the line-based formats; tests use tiny ones to split features. */
  chunkSize?: number;
  /** `--layer NAME`: the layer of a multi-layer file (GeoPackage, FileGDB); required when it has several. */
  layer?: string;
  /** `--sheet NAME` of a spreadsheet (XLSX); default: its first sheet. */
  sheet?: string;
  /**
   * `--header-row N` of a spreadsheet, 1-based; default: the first of its first rows that names
   * latitude and longitude columns (EIA's files have a title row above the header).
   */
  headerRow?: number;
  /** Which GDAL reads FileGDB: gdal-bin's ogr2ogr when installed ("auto", the default), or gdal3.js. */
  gdal?: GdalChoice;
  /** What the import may hold (features, attribute sizes, vertices, nesting, zip expansion); defaults: DEFAULT_IMPORT_LIMITS. */
  limits?: Partial<ImportLimits>;
  /**
   * Features to keep, judged on the file's own attributes (before --map renames them): `--where`,
   * and a source's declared filter. Features it turns away are not counted or yielded.
   */
  where?: (properties: Record<string, unknown>) => boolean;
  /**
   * Read only part `index` of `of` equal row-id ranges of a GeoPackage layer (readers running in
   * parallel each take one, in order). Other formats refuse it.
   */
  part?: { index: number; of: number };
}

export type GdalChoice = 'auto' | 'native' | 'wasm';
