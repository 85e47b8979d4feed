// What an export is made of: a named table of columns and the features that fill it, arriving a
// page at a time. Every writer takes the same source, so a ranking, a board, a delivery and a
// run's results export alike in every format.

/** A GeoJSON geometry (RFC 7946), WGS84 longitude/latitude. */
export interface Geometry {
  type: string;
  coordinates?: unknown;
  geometries?: Geometry[];
}

export type CellValue = string | number | boolean | null;

/** A column of the export: its name as the API spells it and the kind of its values. */
export interface ExportColumn {
  name: string;
  kind: 'string' | 'number' | 'boolean';
}

export interface ExportFeature {
  /** Null when the record has no location. */
  geometry: Geometry | null;
  /** A value (or null) for each column, by column name. */
  properties: Record<string, CellValue>;
}

export interface ExportSource {
  /** The layer's name (GeoPackage table, Shapefile and KML document name): letters, digits, `_`, `-`. */
  name: string;
  columns: readonly ExportColumn[];
  /** The features, a page at a time, in export order; read once. */
  pages: AsyncIterable<readonly ExportFeature[]>;
}

export const EXPORT_FORMATS = ['geojson', 'kml', 'csv', 'shapefile', 'gpkg'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** What a client gets: the media type and the file name extension of each format. */
export const FORMAT_FILES: Readonly<Record<ExportFormat, { contentType: string; extension: string }>> = Object.freeze({
  geojson: { contentType: 'application/geo+json', extension: 'geojson' },
  kml: { contentType: 'application/vnd.google-earth.kml+xml', extension: 'kml' },
  csv: { contentType: 'text/csv; charset=utf-8', extension: 'csv' },
  shapefile: { contentType: 'application/zip', extension: 'shp.zip' },
  gpkg: { contentType: 'application/geopackage+sqlite3', extension: 'gpkg' },
});

/** The media types of the formats, without parameters (as an API document lists them). */
export const EXPORT_MEDIA_TYPES: readonly string[] = Object.freeze(EXPORT_FORMATS.map((format) => FORMAT_FILES[format].contentType.split(';')[0]!));

export function isExportFormat(format: string): format is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(format);
}
