import { CsvParser, FeatureCollectionParser, ParcelRowError, type RowParser, type SourceRow } from '@landscreen/parcel-io';
import { issue, type ValidationIssue } from '@landscreen/validation';
import { RequestValidationError, type BodyContext } from '../validation/index.js';

/**
 * POST /v1/runs takes its locations as the JSON body `{"locations":[…], "fields"?, "preset"?}` or
 * as an upload: the raw file as the body, its kind named by Content-Type — `text/csv` (a header
 * row with `lat`/`latitude` and `lon`/`lng`/`longitude` columns, or a WKT `geometry` column of
 * points, and an optional `id` column), `application/geo+json` (a FeatureCollection of Point
 * features; the id is the feature's `id` or its `id` property) or `application/x-ndjson` (one
 * location per line: `{"lat","lon","id"?}` or a Point Feature) — with `fields`/`preset` in the
 * query string. A bad row is a D1 422 at `["body", "line", <line>]` (docs/decisions.md, "Run
 * uploads"). The file is read by the parcel readers (@landscreen/parcel-io) the imports use.
 */
export type UploadFormat = 'csv' | 'geojson' | 'ndjson';

const UPLOAD_TYPES: Record<string, UploadFormat> = {
  'text/csv': 'csv',
  'application/csv': 'csv',
  'application/geo+json': 'geojson',
  'application/x-ndjson': 'ndjson',
  'application/ndjson': 'ndjson',
  'application/jsonl': 'ndjson',
};

const MAX_ID_LENGTH = 128;
const MAX_LOCATIONS = 100_000;

export function uploadFormat(contentType: string | undefined): UploadFormat | undefined {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return UPLOAD_TYPES[type];
}

export interface UploadLocation {
  lat: number;
  lon: number;
  id?: string;
}

/** The locations of an uploaded file, in file order; every bad row (up to 50) as a D1 issue with its line. */
export function decodeUpload(format: UploadFormat, text: string): UploadLocation[] {
  const locations: UploadLocation[] = [];
  const issues: ValidationIssue[] = [];
  const add = (line: number, lat: unknown, lon: unknown, id: unknown) => {
    const problem = locationProblem(lat, lon, id);
    if (problem) issues.push(lineIssue(line, problem, { lat, lon, id }));
    else locations.push(id === undefined || id === null || id === '' ? { lat: lat as number, lon: lon as number } : { lat: lat as number, lon: lon as number, id: String(id) });
  };
  if (format === 'ndjson') readNdjson(text, add, issues);
  else readWithParser(format === 'csv' ? new CsvParser() : new FeatureCollectionParser(), text, add, issues);
  if (issues.length === 0 && locations.length === 0) issues.push(lineIssue(1, 'the file holds no location', null));
  if (locations.length > MAX_LOCATIONS) issues.push(issue.tooLong(['body'], undefined, MAX_LOCATIONS, locations.length));
  if (issues.length > 0) throw new RequestValidationError(issues.slice(0, 50));
  return locations;
}

type Add = (line: number, lat: unknown, lon: unknown, id: unknown) => void;

/**
 * CSV and GeoJSON through the parcel readers: a row's geometry comes validated (WGS84 ranges) and
 * must be a point. The readers stop at the first malformed row, so that one is the issue reported.
 */
function readWithParser(parser: RowParser, text: string, add: Add, issues: ValidationIssue[]): void {
  const rows: SourceRow[] = [];
  try {
    parser.push(Buffer.from(text, 'utf8'), rows);
    parser.end(rows);
  } catch (error) {
    if (!(error instanceof ParcelRowError)) throw error;
    issues.push(lineIssue(error.line, error.reason, null));
  }
  for (const row of rows) {
    if (row.geometry === null) add(row.line, undefined, undefined, row.properties.id);
    else if (row.geometry.type !== 'Point') issues.push(lineIssue(row.line, `a run location must be a point, not a ${row.geometry.type}`, null));
    else add(row.line, row.geometry.coordinates[1], row.geometry.coordinates[0], row.properties.id);
  }
}

function readNdjson(text: string, add: Add, issues: ValidationIssue[]): void {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length && issues.length < 50; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    let value: any;
    try {
      value = JSON.parse(line);
    } catch (error) {
      issues.push(lineIssue(i + 1, `invalid JSON: ${(error as Error).message}`, line.slice(0, 200)));
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      issues.push(lineIssue(i + 1, 'each line must be a JSON object: {"lat","lon","id"?} or a Point Feature', null));
    } else if (value.type === 'Feature') {
      const geometry = value.geometry;
      if (geometry?.type !== 'Point' || !Array.isArray(geometry.coordinates)) issues.push(lineIssue(i + 1, 'a run location must be a Point feature', null));
      else add(i + 1, geometry.coordinates[1], geometry.coordinates[0], value.id ?? value.properties?.id);
    } else {
      const extra = Object.keys(value).filter((key) => key !== 'lat' && key !== 'lon' && key !== 'id');
      if (extra.length > 0) issues.push(lineIssue(i + 1, `unexpected key "${extra[0]}": a location is {"lat","lon","id"?}`, null));
      else add(i + 1, value.lat, value.lon, value.id);
    }
  }
}

function locationProblem(lat: unknown, lon: unknown, id: unknown): string | undefined {
  if (typeof lat !== 'number' || !Number.isFinite(lat)) return 'lat is missing or not a number';
  if (typeof lon !== 'number' || !Number.isFinite(lon)) return 'lon is missing or not a number';
  if (lat < -90 || lat > 90) return 'latitude must be within [-90, 90]';
  if (lon < -180 || lon > 180) return 'longitude must be within [-180, 180]';
  if (id !== undefined && id !== null && typeof id !== 'string' && typeof id !== 'number') return 'id must be a string or a number';
  if (id !== undefined && id !== null && String(id).length > MAX_ID_LENGTH) return `id is longer than ${MAX_ID_LENGTH} characters`;
  return undefined;
}

const lineIssue = (line: number, reason: string, input: unknown): ValidationIssue =>
  issue.valueError(['body', 'line', line], input, `line ${line}: ${reason}`, { line });

/**
 * POST /v1/runs' body: an upload becomes the JSON body's shape (its `fields`/`preset` taken from
 * the query string), so one schema validates both ways of sending a run. A JSON body names its
 * fields in the body: the query's are refused there rather than silently merged.
 */
export function decodeRunBody(text: string | undefined, context: BodyContext): unknown {
  const query = context.query as Record<string, string | undefined>;
  const format = uploadFormat(context.contentType);
  if (format === undefined || text === undefined) {
    const misplaced = (['fields', 'preset', 'dry_run'] as const).filter((name) => query[name] !== undefined);
    if (misplaced.length > 0) {
      throw new RequestValidationError(
        misplaced.map((name) => issue.valueError(['query', name], query[name], `"${name}" in the query string is for uploads; a JSON body names it in the body`)),
      );
    }
    return text;
  }
  const fields = query.fields?.split(',').map((name) => name.trim()).filter((name) => name.length > 0);
  return {
    locations: decodeUpload(format, text),
    ...(fields !== undefined && { fields }),
    ...(query.preset !== undefined && { preset: query.preset }),
    ...(query.dry_run !== undefined && { dry_run: query.dry_run === 'true' }),
  };
}

/**
 * A valid run body as it crosses back from a body worker: its locations as two arrays of numbers
 * and their ids in one string, since a hundred thousand small objects cost the receiving thread
 * 200-300 ms to rebuild from a structured clone on a loaded machine, these a few milliseconds.
 * (A valid body holds no NUL, so NUL separates the ids.)
 */
export interface PackedRunBody {
  rest: Record<string, unknown>;
  lats: Float64Array;
  lons: Float64Array;
  hasId: Uint8Array;
  ids: string;
}

export function packRunBody(value: unknown): { packed: PackedRunBody; transfer: ArrayBuffer[] } {
  const { locations, ...rest } = value as { locations: UploadLocation[] };
  const lats = new Float64Array(locations.length);
  const lons = new Float64Array(locations.length);
  const hasId = new Uint8Array(locations.length);
  const ids: string[] = [];
  locations.forEach((location, n) => {
    lats[n] = location.lat;
    lons[n] = location.lon;
    if (location.id !== undefined) {
      hasId[n] = 1;
      ids.push(location.id);
    }
  });
  return { packed: { rest, lats, lons, hasId, ids: ids.join('\u0000') }, transfer: [lats.buffer, lons.buffer, hasId.buffer] };
}

export function unpackRunBody(packed: PackedRunBody): unknown {
  const ids = packed.ids === '' && !packed.hasId.includes(1) ? [] : packed.ids.split('\u0000');
  const locations = new Array<UploadLocation>(packed.lats.length);
  let next = 0;
  for (let n = 0; n < locations.length; n++) {
    locations[n] = packed.hasId[n] ? { lat: packed.lats[n]!, lon: packed.lons[n]!, id: ids[next++] } : { lat: packed.lats[n]!, lon: packed.lons[n]! };
  }
  return { ...packed.rest, locations };
}
