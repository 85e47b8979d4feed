import { Readable } from 'node:stream';
import { csvChunks } from './csv.js';
import { geojsonChunks } from './geojson.js';
import { geopackageFile } from './geopackage.js';
import { kmlChunks } from './kml.js';
import type { ExportFormat, ExportSource } from './model.js';
import { shapefileZip } from './shapefile.js';

/**
 * The export file of a source in a format, as a stream. Text formats start streaming with the
 * first page; the Shapefile and the GeoPackage are complete files, ready (or failed, e.g. with
 * ExportTooLargeError) when this resolves.
 */
export async function exportStream(format: ExportFormat, source: ExportSource): Promise<Readable> {
  switch (format) {
    case 'geojson':
      return Readable.from(geojsonChunks(source), { objectMode: false });
    case 'csv':
      return Readable.from(csvChunks(source), { objectMode: false });
    case 'kml':
      return Readable.from(kmlChunks(source), { objectMode: false });
    case 'shapefile':
      return shapefileZip(source);
    case 'gpkg':
      return geopackageFile(source);
  }
}
