// Public surface of @landscreen/layer-io: GIS layer files (GeoJSON, newline-delimited GeoJSON,
// CSV, Shapefile plain or zipped, GeoPackage, FileGDB, FlatGeobuf, KML/KMZ, XLSX, single-band
// GeoTIFF) read as WGS84 features or a grid (whole, or window by window), with the file's CRS (a
// .prj, a GeoPackage srs, FileGDB and FlatGeobuf definitions, geokeys, a GeoJSON "crs") reprojected
// and refused when unknown.

export type {
  FeaturePosition,
  GdalChoice,
  LayerFeature,
  LayerFormat,
  LayerProgress,
  LayerProgressListener,
  PropertyMap,
  ReadLayerOptions,
  VectorLayerFormat,
} from './types.js';
export { LayerReadError, describePosition } from './errors.js';
export { LAYER_FORMATS } from './types.js';
export { READABLE_FORMATS, detectFormat, layerFormatFromExtension, sniffLayerFormat } from './format.js';
export { readLayer } from './read-layer.js';
export { inspectLayerFile, type AttributeType, type InspectOptions, type LayerDescription, type LayerFileDescription } from './inspect.js';
export { parsePropertyMap } from './property-map.js';
export { parseWhere, WhereSyntaxError, type WhereExpression, type WherePredicate } from './where/where.js';
export { DEFAULT_IMPORT_LIMITS, LIMIT_SETTINGS, type ImportLimits } from './limits/import-limits.js';
export { WGS84, crsFromEpsg, crsFromWkt, isWgs84, transformToWgs84, type Crs, type ToWgs84 } from './crs/crs.js';
export { readGrid, type ReadGridOptions } from './grid/read-grid.js';
export { openGrid, type CellLimit, type GridFile, type OpenGridOptions, type WindowOptions } from './grid/open-grid.js';
export { createGridLocator, type Cell, type GridLocator } from './grid/locator.js';
export { gridProjection, type GridProjection } from './grid/projection.js';
export type { GeoTransform, GridHeader, GridLayout, GridWindow, LayerGrid } from './grid/types.js';
