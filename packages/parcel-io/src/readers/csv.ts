// CSV parcels: a header row names the columns; the location is a WKT `geometry` (or `wkt`)
// column, else `lat`/`lon` columns; every other column becomes a property. Cells stay strings
// (the mapper converts the fields it knows); an empty cell becomes null, since CSV cannot tell
// "empty" from "absent" and a null is what every later step treats as "not given".

import { StringDecoder } from 'node:string_decoder';
import { GeometryError, ParcelRowError, WktError } from '../errors.js';
import { setOwn } from '@landscreen/validation';
import type { GeoJSONGeometry, SourceRow } from '../types.js';
import { checkLonLat, validateGeometry } from '../validate-geometry.js';
import { parseWkt } from '../wkt.js';
import { CsvRecordReader } from './csv-records.js';
import type { RowParser } from './row-parser.js';

const GEOMETRY_COLUMNS = ['geometry', 'wkt'];
const LAT_COLUMNS = ['lat', 'latitude'];
const LON_COLUMNS = ['lon', 'lng', 'longitude'];
const DECIMAL = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

interface Header {
  width: number;
  geometry: number;
  lat: number;
  lon: number;
  /** Columns that become properties: their index and name. */
  columns: number[];
  names: string[];
}

export class CsvParser implements RowParser {
  /** Keeps a UTF-8 sequence split between chunks whole. */
  private readonly decoder = new StringDecoder('utf8');
  private readonly records = new CsvRecordReader();
  private header: Header | null = null;
  private started = false;

  push(chunk: Buffer, rows: SourceRow[]): void {
    this.records.push(this.text(this.decoder.write(chunk)), this.sink(rows));
  }

  end(rows: SourceRow[]): void {
    const sink = this.sink(rows);
    this.records.push(this.text(this.decoder.end()), sink);
    this.records.end(sink);
    if (this.header === null) throw new ParcelRowError(1, 'the CSV file is empty: a header row is required');
  }

  /** Drops the BOM spreadsheets put first (the decoder holds back a BOM split over chunks). */
  private text(text: string): string {
    if (this.started || text.length === 0) return text;
    this.started = true;
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  private sink(rows: SourceRow[]) {
    return (fields: string[], line: number): void => {
      if (this.header === null) this.header = readHeader(fields, line);
      else rows.push(toRow(this.header, fields, line));
    };
  }
}

function readHeader(fields: string[], line: number): Header {
  const lower = fields.map((f) => f.trim().toLowerCase());
  const seen = new Set<string>();
  fields.forEach((f, i) => {
    const name = f.trim();
    if (name === '') throw new ParcelRowError(line, `column ${i + 1} of the header has no name`);
    if (seen.has(name)) throw new ParcelRowError(line, `column ${JSON.stringify(name)} appears twice in the header`);
    seen.add(name);
  });
  const find = (candidates: string[]): number => lower.findIndex((name) => candidates.includes(name));
  const header = { width: fields.length, geometry: find(GEOMETRY_COLUMNS), lat: find(LAT_COLUMNS), lon: find(LON_COLUMNS) };
  if (header.geometry < 0 && (header.lat < 0 || header.lon < 0)) {
    throw new ParcelRowError(
      line,
      'the CSV header has no "geometry" (or "wkt") column and no "lat"/"lon" (or "latitude"/"longitude") columns',
    );
  }
  const location = new Set([header.geometry, header.lat, header.lon]);
  const columns = fields.map((_, i) => i).filter((i) => !location.has(i));
  return { ...header, columns, names: columns.map((i) => fields[i].trim()) };
}

function toRow(header: Header, fields: string[], line: number): SourceRow {
  if (fields.length !== header.width) {
    throw new ParcelRowError(line, `expected ${header.width} fields as in the header, found ${fields.length}`);
  }
  const properties: Record<string, unknown> = {};
  const { columns, names } = header;
  for (let k = 0; k < columns.length; k++) {
    const value = fields[columns[k]];
    setOwn(properties, names[k], value === '' ? null : value);
  }
  return { line, geometry: location(header, fields, line), properties };
}

function location(header: Header, fields: string[], line: number): GeoJSONGeometry | null {
  const wkt = header.geometry >= 0 ? fields[header.geometry].trim() : '';
  try {
    if (wkt !== '') return validateGeometry(parseWkt(wkt));
    if (header.lat < 0 || header.lon < 0) return null;
    const lat = fields[header.lat].trim();
    const lon = fields[header.lon].trim();
    if (lat === '' && lon === '') return null;
    if (lat === '' || lon === '') throw new ParcelRowError(line, `${lat === '' ? 'lat' : 'lon'} is empty but the other coordinate is not`);
    if (!DECIMAL.test(lat)) throw new ParcelRowError(line, `lat ${JSON.stringify(lat)} is not a number`);
    if (!DECIMAL.test(lon)) throw new ParcelRowError(line, `lon ${JSON.stringify(lon)} is not a number`);
    const point: [number, number] = [Number(lon), Number(lat)];
    checkLonLat(point[0], point[1]);
    return { type: 'Point', coordinates: point };
  } catch (error) {
    if (error instanceof WktError || error instanceof GeometryError) {
      throw new ParcelRowError(line, `geometry: ${error.message}`);
    }
    throw error;
  }
}
