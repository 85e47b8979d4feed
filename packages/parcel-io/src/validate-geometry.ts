// Shape and range checks for a geometry from any source (GeoJSON objects, parsed WKT). Checking
// here, while the row's line is still known, turns a projected-CRS file or a broken ring into a
// row error instead of a PostGIS failure (or a parcel on the wrong continent) at load time.

import { GeometryError } from './errors.js';
import type { GeoJSONGeometry, GeometryType, Position } from './types.js';

const GEOMETRY_TYPES: ReadonlySet<unknown> = new Set<GeometryType>([
  'Point',
  'MultiPoint',
  'LineString',
  'MultiLineString',
  'Polygon',
  'MultiPolygon',
]);

export interface GeometryCheck {
  /**
   * Whether positions must be WGS84 longitude/latitude (the default). A caller that reprojects
   * from the file's own CRS turns it off and checks the ranges after reprojecting.
   */
  lonLatRanges?: boolean;
  /**
   * The deepest a feature's JSON may nest, and the setting that raises it (named in the refusal).
   * A geometry needs 4 levels; a file nested thousands deep is refused before anything walks it.
   */
  depthLimit?: { max: number; setting: string };
}

type PositionCheck = (value: unknown) => Position;

/**
 * Returns `{ type, coordinates }` of a valid Point, MultiPoint, LineString, MultiLineString,
 * Polygon or MultiPolygon (other members such as `bbox` are dropped), or throws GeometryError.
 * Rings must be closed with at least four positions (RFC 7946 §3.1.6; PostGIS refuses open rings).
 * null, and an empty geometry (`coordinates: []`, as WKT EMPTY), give null: a parcel without a
 * location, which later steps handle once instead of every helper guarding empty arrays.
 */
export function validateGeometry(value: unknown, check: GeometryCheck = {}): GeoJSONGeometry | null {
  if (value === null) return null;
  const position = check.lonLatRanges === false ? numbers : lonLatPosition;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new GeometryError(`geometry must be an object or null, got ${preview(value)}`);
  }
  const { type, coordinates } = value as { type?: unknown; coordinates?: unknown };
  if (Array.isArray(coordinates) && coordinates.length === 0 && GEOMETRY_TYPES.has(type)) return null;
  switch (type) {
    case 'Point':
      return { type, coordinates: position(coordinates) };
    case 'MultiPoint':
      return { type, coordinates: list(coordinates, 'MultiPoint', position) };
    case 'LineString':
      return { type, coordinates: lineString(coordinates, position) };
    case 'MultiLineString':
      return { type, coordinates: list(coordinates, 'MultiLineString', (v) => lineString(v, position)) };
    case 'Polygon':
      return { type, coordinates: polygon(coordinates, position) };
    case 'MultiPolygon':
      return { type, coordinates: list(coordinates, 'MultiPolygon', (v) => polygon(v, position)) };
    case 'GeometryCollection':
      throw new GeometryError('GeometryCollection is not supported; use a MultiPolygon');
    default:
      throw new GeometryError(`unknown geometry type ${JSON.stringify(type)}`);
  }
}

/** Throws unless lon is within −180..180 and lat within −90..90. */
export function checkLonLat(lon: number, lat: number): void {
  if (!(lon >= -180 && lon <= 180)) {
    throw new GeometryError(
      `longitude ${lon} is outside -180..180 (coordinates must be WGS84 longitude/latitude, not a projected CRS)`,
    );
  }
  if (!(lat >= -90 && lat <= 90)) {
    throw new GeometryError(
      `latitude ${lat} is outside -90..90 (coordinates must be WGS84 longitude/latitude, in that order)`,
    );
  }
}

function lonLatPosition(value: unknown): Position {
  const position = numbers(value);
  checkLonLat(position[0], position[1]);
  return position;
}

function numbers(value: unknown): Position {
  if (!Array.isArray(value) || value.length < 2) {
    throw new GeometryError(`a position must be an array [longitude, latitude], got ${preview(value)}`);
  }
  for (let i = 0; i < value.length; i++) {
    const n = value[i];
    if (typeof n !== 'number' || !Number.isFinite(n)) {
      throw new GeometryError(`a position must hold numbers, got ${preview(value)}`);
    }
  }
  return value as Position;
}

function lineString(value: unknown, position: PositionCheck): Position[] {
  const positions = list(value, 'LineString', position);
  if (positions.length < 2) throw new GeometryError('a LineString needs at least 2 positions');
  return positions;
}

function polygon(value: unknown, position: PositionCheck): Position[][] {
  const rings = list(value, 'Polygon', (v) => ring(v, position));
  if (rings.length === 0) throw new GeometryError('a Polygon needs an outer ring');
  return rings;
}

function ring(value: unknown, position: PositionCheck): Position[] {
  const positions = list(value, 'ring', position);
  if (positions.length < 4) {
    throw new GeometryError(`a polygon ring needs at least 4 positions, got ${positions.length}`);
  }
  const first = positions[0];
  const last = positions[positions.length - 1];
  if (first[0] !== last[0] || first[1] !== last[1]) {
    throw new GeometryError(
      `a polygon ring must be closed (first position ${preview(first)} repeated last, found ${preview(last)})`,
    );
  }
  return positions;
}

function list<T>(value: unknown, what: string, item: (v: unknown) => T): T[] {
  if (!Array.isArray(value)) throw new GeometryError(`${what} coordinates must be an array, got ${preview(value)}`);
  for (let i = 0; i < value.length; i++) item(value[i]);
  return value as T[];
}

function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    // Nested past the stack (JSON.parse takes what JSON.stringify cannot give back).
    return Array.isArray(value) ? '[[[... (nested too deep to show)' : '(a value nested too deep to show)';
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
