// Which reader a layer file needs, told by its content: magic numbers for the binary formats, a
// look inside a zip (a .shp, a .gdb folder, a .kml, an XLSX workbook), the XML root for KML, and
// for the text formats the extension or parcel-io's sniffer. A file none of them reads is refused
// with what it looks like and the list of what is readable, not with a parser's confusion.

import { readdir, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { formatFromExtension, readFileHead, sniffFormat } from '@landscreen/parcel-io';
import { LayerReadError } from './errors.js';
import type { LayerFormat } from './types.js';
import { zipEntryNames } from './zip/zip-archive.js';

export const READABLE_FORMATS =
  'GeoJSON, newline-delimited GeoJSON, CSV (WKT or lat/lon), Shapefile (.shp or zipped), GeoPackage, ' +
  'FileGDB (.gdb folder or zipped), FlatGeobuf, KML, KMZ, XLSX, GeoTIFF';

const BY_EXTENSION: Readonly<Record<string, LayerFormat>> = {
  '.shp': 'shapefile',
  '.gpkg': 'gpkg',
  '.fgb': 'flatgeobuf',
  '.kml': 'kml',
  '.kmz': 'kmz',
  '.xlsx': 'xlsx',
  '.tif': 'geotiff',
  '.tiff': 'geotiff',
};

/** Extensions of binary formats: a file so named whose bytes are not that format is refused as such. */
const NAMED_BINARY: Readonly<Record<string, string>> = {
  '.zip': 'zip',
  '.kmz': 'KMZ (zip)',
  '.xlsx': 'XLSX (zip)',
  '.gpkg': 'GeoPackage',
  '.fgb': 'FlatGeobuf',
  '.shp': 'Shapefile',
  '.tif': 'GeoTIFF',
  '.tiff': 'GeoTIFF',
};

/** The format an extension names (a hint only: detectFormat goes by the content). */
export function layerFormatFromExtension(path: string): LayerFormat | null {
  const extension = extname(path).toLowerCase();
  if (extension === '.gdb') return 'filegdb';
  return BY_EXTENSION[extension] ?? formatFromExtension(path);
}

export async function detectFormat(path: string): Promise<LayerFormat> {
  if ((await stat(path)).isDirectory()) return folderFormat(path);
  const head = await readFileHead(path);
  const binary = sniffBinary(head);
  if (binary === 'zip') return zipFormat(path);
  if (binary !== null) return binary;
  const known = binaryKindOf(head);
  if (known !== null) throw unreadable(path, known);
  if (isKml(head)) return 'kml';
  const named = NAMED_BINARY[extname(path).toLowerCase()];
  if (named !== undefined) throw new LayerReadError(path, `not a readable ${named} file: its content is not one (no ${named} signature)`);
  if (!looksLikeText(head)) throw unreadable(path, 'an unknown binary format');
  const byExtension = formatFromExtension(path);
  if (byExtension !== null) return byExtension;
  try {
    return sniffFormat(head);
  } catch (error) {
    throw new LayerReadError(path, (error as Error).message);
  }
}

/** Binary layer formats by their first bytes ('zip' needs a look inside); null when none. */
export function sniffLayerFormat(head: Buffer): LayerFormat | 'zip' | null {
  return sniffBinary(head);
}

function sniffBinary(head: Buffer): LayerFormat | 'zip' | null {
  if (head.length < 4) return null;
  const magic = head.readUInt32BE(0);
  if (magic === 0x49492a00 || magic === 0x4d4d002a || magic === 0x49492b00 || magic === 0x4d4d002b) return 'geotiff';
  if (magic === 0x504b0304 || magic === 0x504b0506) return 'zip';
  if (magic === 0x0000270a) return 'shapefile'; // the .shp file code
  // FlatGeobuf: "fgb", a major version byte (3), "fgb", a patch byte.
  if (head.length >= 8 && head[0] === 0x66 && head[1] === 0x67 && head[2] === 0x62 && head[4] === 0x66 && head[5] === 0x67 && head[6] === 0x62) {
    return 'flatgeobuf';
  }
  if (isSqlite(head) && isGeoPackage(head)) return 'gpkg';
  return null;
}

const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

function isSqlite(head: Buffer): boolean {
  return head.length >= 100 && head.subarray(0, 16).equals(SQLITE_MAGIC);
}

/** The application id at offset 68 of the SQLite header: "GPKG" (1.2+), or "GP10"/"GP11" of older files. */
function isGeoPackage(head: Buffer): boolean {
  const id = head.toString('latin1', 68, 72);
  return id === 'GPKG' || id === 'GP10' || id === 'GP11';
}

/** What a file no reader takes looks like, for the refusal. */
function binaryKindOf(head: Buffer): string | null {
  const text = head.toString('latin1', 0, Math.min(head.length, 16));
  if (text.startsWith('%PDF')) return 'a PDF document';
  if (isSqlite(head)) return 'an SQLite database that is not a GeoPackage (no GPKG application id)';
  if (head.length >= 8 && head.readUInt32BE(0) === 0xd0cf11e0) return 'an old Excel/Office (OLE2) file, such as .xls: save it as .xlsx';
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'a gzip file: decompress it first';
  if (text.startsWith('\x89PNG')) return 'a PNG image';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'a JPEG image';
  if (text.startsWith('7z\xbc\xaf')) return 'a 7-Zip archive: unpack it first';
  if (text.startsWith('Rar!')) return 'a RAR archive: unpack it first';
  const start = head.toString('utf8', 0, Math.min(head.length, 512)).trimStart().toLowerCase();
  if (start.startsWith('<!doctype html') || start.startsWith('<html')) return 'an HTML page (a download that returned a web page?)';
  return null;
}

function isKml(head: Buffer): boolean {
  const text = head.toString('utf8', 0, Math.min(head.length, 4096)).replace(/^\uFEFF/, '');
  // The root element, after any XML declaration, comments and processing instructions.
  const root = /^\s*(?:<\?[^>]*\?>\s*|<!--[\s\S]*?-->\s*)*<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/.exec(text);
  return root !== null && root[2] === 'kml';
}

/** Text formats hold no NUL byte and decode as UTF-8 (or Latin-1 CSV, which has no NUL either). */
function looksLikeText(head: Buffer): boolean {
  return !head.includes(0);
}

async function zipFormat(path: string): Promise<LayerFormat> {
  const names = await zipEntryNames(path);
  const lower = names.map((name) => name.toLowerCase());
  if (lower.some((name) => /(^|\/)[^/]+\.gdb\//.test(name))) return 'filegdb';
  if (lower.some((name) => name.endsWith('.shp'))) return 'shapefile';
  if (lower.includes('xl/workbook.xml')) return 'xlsx';
  if (lower.some((name) => name.endsWith('.kml'))) return 'kmz';
  const inner = lower.find((name) => /\.(gpkg|fgb|geojson|json|csv|tif|tiff)$/.test(name));
  if (inner !== undefined) throw new LayerReadError(path, `the zip holds ${basename(inner)}: unzip it and import that file; readable formats are: ${READABLE_FORMATS}`);
  const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? `, … (${names.length} files)` : '');
  throw new LayerReadError(
    path,
    `the zip holds no layer (no .shp, no .gdb folder, no .kml, no XLSX workbook; it holds ${shown || 'nothing'}); readable formats are: ${READABLE_FORMATS}`,
  );
}

async function folderFormat(path: string): Promise<LayerFormat> {
  const names = await readdir(path);
  if (names.some((name) => name.toLowerCase().endsWith('.gdbtable'))) return 'filegdb';
  throw new LayerReadError(path, `is a folder, not a layer file (a FileGDB folder holds .gdbtable files); readable formats are: ${READABLE_FORMATS}`);
}

function unreadable(path: string, kind: string): LayerReadError {
  return new LayerReadError(path, `is ${kind}, not a layer file; readable formats are: ${READABLE_FORMATS}`);
}
