// The shapes shared by the readers, the geometry helpers and the mapper. GeoJSON types are
// written out here (RFC 7946 subset) rather than taken from @types/geojson: the package installs
// nothing, and parcels only ever need these six geometry kinds.

/** [longitude, latitude] or [longitude, latitude, z], WGS84 degrees. */
export type Position = number[];

export interface PointGeometry {
  type: 'Point';
  coordinates: Position;
}
export interface MultiPointGeometry {
  type: 'MultiPoint';
  coordinates: Position[];
}
export interface LineStringGeometry {
  type: 'LineString';
  coordinates: Position[];
}
export interface MultiLineStringGeometry {
  type: 'MultiLineString';
  coordinates: Position[][];
}
export interface PolygonGeometry {
  type: 'Polygon';
  /** Outer ring first, then holes; every ring closed (first position repeated last). */
  coordinates: Position[][];
}
export interface MultiPolygonGeometry {
  type: 'MultiPolygon';
  coordinates: Position[][][];
}

export type GeoJSONGeometry =
  | PointGeometry
  | MultiPointGeometry
  | LineStringGeometry
  | MultiLineStringGeometry
  | PolygonGeometry
  | MultiPolygonGeometry;

export type GeometryType = GeoJSONGeometry['type'];

/** [minLon, minLat, maxLon, maxLat]. */
export type BBox = [number, number, number, number];

/** One parcel as a reader yields it, before any mapping. */
export interface SourceRow {
  /** 1-based line of the file where the feature or CSV record starts. */
  line: number;
  /** Validated (shape and WGS84 ranges); null when the source has no location. */
  geometry: GeoJSONGeometry | null;
  /** GeoJSON properties as parsed; CSV cells as strings (empty cells null). */
  properties: Record<string, unknown>;
}

export type ParcelFileFormat = 'geojson' | 'ndjson' | 'csv';
