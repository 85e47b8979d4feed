// XLSX workbooks (EIA-860's plant and generator files) through exceljs's streaming reader: one
// sheet (`--sheet`, or the only one), a header row (`--header-row`, or the first of the sheet's
// first rows that names latitude and longitude columns, since EIA puts a title row above it),
// then a point per row from its latitude/longitude cells, every other column an attribute with
// the cell's type (numbers stay numbers). Coordinates are WGS84, as the CSV reader takes them.

import { stat } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { WGS84 } from '../crs/crs.js';
import { LayerReadError, errorMessage } from '../errors.js';
import type { ReadLayerOptions } from '../types.js';
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from '../limits/import-limits.js';
import { checkDeclaredExpansion, openZipArchive } from '../zip/zip-archive.js';
import { layerList } from './checked-geometry.js';
import type { ByteCounter, FormatReader, RawFeature } from './raw-feature.js';

const LATITUDE = ['lat', 'latitude'];
const LONGITUDE = ['lon', 'lng', 'long', 'longitude'];
/** How far down a sheet the header is looked for when --header-row is not given. */
const HEADER_SEARCH_ROWS = 10;
const WORKBOOK_XML_MAX_BYTES = 16 * 2 ** 20;

export function readXlsx(path: string, options: ReadLayerOptions, limits: ImportLimits): FormatReader {
  const bytes: ByteCounter = { bytesRead: 0, totalBytes: 0 };
  return { features: features(path, options, bytes, limits), bytes, hasSchema: true };
}

/**
 * Sheet names in workbook order, from xl/workbook.xml. exceljs inflates the workbook itself, so
 * the sizes its central directory declares are checked against the zip limits here first.
 */
export async function xlsxSheetNames(path: string, limits: ImportLimits = DEFAULT_IMPORT_LIMITS): Promise<string[]> {
  const zip = await openZipArchive(path, limits);
  try {
    checkDeclaredExpansion(path, zip.entries, limits);
    const entry = zip.entries.find((candidate) => candidate.fileName === 'xl/workbook.xml');
    if (entry === undefined) throw new LayerReadError(path, 'not an XLSX workbook (no xl/workbook.xml)');
    const xml = (await zip.read(entry, WORKBOOK_XML_MAX_BYTES)).toString('utf8');
    return [...xml.matchAll(/<(?:\w+:)?sheet\b[^>]*\bname="([^"]*)"/g)].map((match) => unescapeXml(match[1]));
  } finally {
    zip.close();
  }
}

export function pickSheet(path: string, sheets: readonly string[], wanted: string | undefined): string {
  if (sheets.length === 0) throw new LayerReadError(path, 'the workbook has no sheet');
  if (wanted === undefined) {
    if (sheets.length === 1) return sheets[0];
    throw new LayerReadError(path, `has ${sheets.length} sheets: choose one with --sheet NAME (${layerList(sheets)})`);
  }
  const found = sheets.find((name) => name === wanted) ?? sheets.find((name) => name.toLowerCase() === wanted.trim().toLowerCase());
  if (found === undefined) throw new LayerReadError(path, `has no sheet ${JSON.stringify(wanted)}; its sheets are ${layerList(sheets)}`);
  return found;
}

interface Header {
  row: number;
  names: (string | null)[];
  lat: number;
  lon: number;
}

async function* features(path: string, options: ReadLayerOptions, bytes: ByteCounter, limits: ImportLimits): AsyncGenerator<RawFeature> {
  bytes.totalBytes = (await stat(path)).size;
  const sheet = pickSheet(path, await xlsxSheetNames(path, limits), options.sheet);
  const workbook = new ExcelJS.stream.xlsx.WorkbookReader(path, {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'ignore',
  });
  let index = 0;
  let found = false;
  try {
    for await (const worksheet of workbook) {
      const reader = worksheet as unknown as AsyncIterable<ExcelJS.Row> & { name: string };
      if (reader.name !== sheet || found) {
        for await (const _ of reader); // the zip is read in order: an unwanted sheet is drained
        continue;
      }
      found = true;
      let header: Header | null = null;
      for await (const row of reader) {
        const values = cellValues(row);
        if (header === null) {
          header = headerOf(path, row.number, values, options.headerRow);
          continue;
        }
        if (values.every((value) => value === null)) continue;
        index++;
        const position = { index, row: row.number };
        const properties: Record<string, unknown> = {};
        header.names.forEach((name, column) => {
          if (name !== null && column !== header!.lat && column !== header!.lon && !Object.hasOwn(properties, name)) properties[name] = values[column] ?? null;
        });
        yield { position, geometry: point(path, values[header.lat], values[header.lon], position), properties, toWgs84: null, crsLabel: WGS84.label };
      }
      if (header === null) throw new LayerReadError(path, `sheet ${JSON.stringify(sheet)} has no header row${options.headerRow === undefined ? '' : ` ${options.headerRow}`}`);
    }
  } catch (error) {
    if (error instanceof LayerReadError) throw error;
    throw new LayerReadError(path, `not a readable XLSX workbook: ${errorMessage(error)}`);
  }
  bytes.bytesRead = bytes.totalBytes;
  if (!found) throw new LayerReadError(path, `sheet ${JSON.stringify(sheet)} was not found in the workbook's worksheets`);
}

/**
 * The header: the row --header-row names, or the first of the first rows with latitude and
 * longitude columns. Rows before it (titles, notes) are skipped.
 */
function headerOf(path: string, rowNumber: number, values: unknown[], wanted: number | undefined): Header | null {
  if (wanted !== undefined && rowNumber < wanted) return null;
  if (wanted !== undefined && rowNumber > wanted) throw new LayerReadError(path, `row ${wanted} (--header-row) is empty`);
  if (wanted === undefined && rowNumber > HEADER_SEARCH_ROWS) {
    throw new LayerReadError(path, `none of the first ${HEADER_SEARCH_ROWS} rows names latitude and longitude columns; give the header's row with --header-row N`);
  }
  const names = values.map((value) => (value === null || value === undefined ? null : String(value).trim() || null));
  const find = (candidates: string[]) => names.findIndex((name) => name !== null && candidates.includes(name.toLowerCase()));
  const lat = find(LATITUDE);
  const lon = find(LONGITUDE);
  if (lat >= 0 && lon >= 0) return { row: rowNumber, names, lat, lon };
  if (wanted === undefined) return null;
  throw new LayerReadError(
    path,
    `row ${rowNumber} (--header-row) has no latitude and longitude columns (it names ${layerList(names.filter((name): name is string => name !== null).slice(0, 12))})`,
  );
}

function point(path: string, lat: unknown, lon: unknown, position: RawFeature['position']): RawFeature['geometry'] {
  if ((lat === null || lat === '') && (lon === null || lon === '')) return null;
  const y = typeof lat === 'number' ? lat : Number(String(lat ?? '').trim());
  const x = typeof lon === 'number' ? lon : Number(String(lon ?? '').trim());
  if (lat === null || lon === null || !Number.isFinite(x) || !Number.isFinite(y) || String(lat).trim() === '' || String(lon).trim() === '') {
    throw new LayerReadError(path, `latitude ${JSON.stringify(lat)} and longitude ${JSON.stringify(lon)} are not both numbers`, position);
  }
  return { type: 'Point', coordinates: [x, y] };
}

/**
 * Cell values by 0-based column: rich text as its text, formulas as their result, dates as ISO
 * text. Text is trimmed: writers that indent their shared strings (GDAL's) leave line breaks in
 * them, and a spreadsheet's leading or trailing blanks are never meant.
 */
function cellValues(row: ExcelJS.Row): unknown[] {
  const raw = row.values as unknown[];
  const values: unknown[] = [];
  for (let column = 1; column < raw.length; column++) values.push(plain(raw[column]));
  return values;
}

function plain(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value.trim();
  if (value instanceof Date) return isMidnightUtc(value) ? value.toISOString().slice(0, 10) : value.toISOString();
  if (typeof value !== 'object') return value;
  const cell = value as { richText?: { text: string }[]; result?: unknown; text?: unknown; error?: string };
  if (cell.richText !== undefined) return cell.richText.map((part) => part.text).join('').trim();
  if ('result' in cell) return plain(cell.result);
  if (cell.text !== undefined) return plain(cell.text);
  if (cell.error !== undefined) return null;
  return null;
}

function isMidnightUtc(date: Date): boolean {
  return date.getUTCHours() === 0 && date.getUTCMinutes() === 0 && date.getUTCSeconds() === 0 && date.getUTCMilliseconds() === 0;
}

function unescapeXml(text: string): string {
  return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&apos;', "'").replaceAll('&amp;', '&');
}
