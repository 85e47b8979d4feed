// Public surface of @landscreen/layer-io: GIS layer files (GeoJSON, newline-delimited GeoJSON,
// CSV, Shapefile plain or zipped, GeoPackage, FileGDB, FlatGeobuf, KML/KMZ, XLSX, single-band
// GeoTIFF) read as WGS84 features or a grid, with the file's CRS (a .prj, a GeoPackage srs, FileGDB
// and FlatGeobuf definitions, geokeys, a GeoJSON "crs") reprojected and refused when unknown.

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
export { WGS84, crsFromEpsg, crsFromWkt, transformToWgs84, type Crs, type ToWgs84 } from './crs/crs.js';
export { readGrid, type ReadGridOptions } from './grid/read-grid.js';
export { createGridLocator, type Cell, type GridLocator } from './grid/locator.js';
export type { GeoTransform, LayerGrid } from './grid/types.js';
