// Public surface of @landscreen/feature-export: a table of features, read a page at a time,
// written as GeoJSON, KML or CSV (streamed as the pages arrive), a zipped Shapefile (gathered,
// bounded) or a GeoPackage (through a temporary file).

export * from './model.js';
export { ExportTooLargeError, MAX_SHAPEFILE_FEATURES } from './shapefile.js';
export { exportStream } from './export-stream.js';
