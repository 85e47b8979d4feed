import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import sqlite from 'node-sqlite3-wasm';
import wkx from 'wkx';
import { roundedGeometry } from './geometry.js';
import type { CellValue, ExportColumn, ExportSource, Geometry } from './model.js';

// An OGC GeoPackage (1.2): an SQLite file with the spatial reference, contents and geometry-column
// tables the standard requires and one feature table. SQLite runs as WebAssembly (node-sqlite3-wasm:
// no native build, no install script) on a temporary file, so a market of any size is written page
// by page without being held in memory, then streamed and deleted. @ngageoint/geopackage was tried
// and not taken: on Node 20 without better-sqlite3 (a native module with an install script) it falls
// back to a browser build of sql.js that fetches its WebAssembly with `fetch` and failed to insert a
// feature (docs/decisions.md, "Exports").

const GPKG_APPLICATION_ID = 0x47504b47; // "GPKG"
const GPKG_VERSION = 10200;
const WGS84_WKT =
  'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AUTHORITY["EPSG","4326"]]';

const SCHEMA = `
CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL,
  organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
  description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER,
  CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL,
  srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,
  CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name),
  CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
  CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
`;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const SQL_TYPES: Readonly<Record<ExportColumn['kind'], string>> = { string: 'TEXT', number: 'DOUBLE', boolean: 'BOOLEAN' };

interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

function boxOf(coordinates: unknown, box: Box): void {
  if (!Array.isArray(coordinates)) return;
  if (typeof coordinates[0] === 'number') {
    const [x, y] = coordinates as number[];
    box.minX = Math.min(box.minX, x!);
    box.maxX = Math.max(box.maxX, x!);
    box.minY = Math.min(box.minY, y!);
    box.maxY = Math.max(box.maxY, y!);
    return;
  }
  for (const part of coordinates) boxOf(part, box);
}

const emptyBox = (): Box => ({ minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity });

/** The GeoPackage binary of a geometry: the "GP" header with its envelope, then the WKB. */
function geometryBlob(geometry: Geometry, layerBox: Box): Uint8Array {
  const box = emptyBox();
  boxOf(geometry.coordinates ?? (geometry.geometries ?? []).map((part) => part.coordinates), box);
  const header = Buffer.alloc(40);
  header.write('GP', 0, 'ascii');
  header.writeUInt8(0, 2); // version 1
  header.writeUInt8(0b0000_0011, 3); // envelope [minx, maxx, miny, maxy]; little endian
  header.writeInt32LE(4326, 4);
  [box.minX, box.maxX, box.minY, box.maxY].forEach((value, at) => header.writeDoubleLE(value, 8 + 8 * at));
  layerBox.minX = Math.min(layerBox.minX, box.minX);
  layerBox.minY = Math.min(layerBox.minY, box.minY);
  layerBox.maxX = Math.max(layerBox.maxX, box.maxX);
  layerBox.maxY = Math.max(layerBox.maxY, box.maxY);
  return Buffer.concat([header, wkx.Geometry.parseGeoJSON(geometry).toWkb()]);
}

function sqlValue(value: CellValue): number | string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

/** The geometry column's name: `geom`, unless a column of the export already has it. */
function geometryColumn(columns: readonly ExportColumn[]): string {
  const taken = new Set(columns.map((column) => column.name.toLowerCase()));
  let name = 'geom';
  while (taken.has(name) || name === 'fid') name = `_${name}`;
  return name;
}

/** Writes the GeoPackage to `path`, a page per transaction. */
async function writeGeoPackage(path: string, source: ExportSource): Promise<void> {
  const db = new sqlite.Database(path);
  try {
    db.exec(`PRAGMA application_id = ${GPKG_APPLICATION_ID}; PRAGMA user_version = ${GPKG_VERSION};`);
    db.exec(SCHEMA);
    db.run('INSERT INTO gpkg_spatial_ref_sys VALUES (?, ?, ?, ?, ?, ?)', ['Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', 'undefined cartesian coordinate reference system']);
    db.run('INSERT INTO gpkg_spatial_ref_sys VALUES (?, ?, ?, ?, ?, ?)', ['Undefined geographic SRS', 0, 'NONE', 0, 'undefined', 'undefined geographic coordinate reference system']);
    db.run('INSERT INTO gpkg_spatial_ref_sys VALUES (?, ?, ?, ?, ?, ?)', ['WGS 84 geodetic', 4326, 'EPSG', 4326, WGS84_WKT, 'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid']);
    const table = source.name;
    const geom = geometryColumn(source.columns);
    const columns = source.columns.map((column) => `${quote(column.name)} ${SQL_TYPES[column.kind]}`);
    db.exec(`CREATE TABLE ${quote(table)} (fid INTEGER PRIMARY KEY AUTOINCREMENT, ${quote(geom)} GEOMETRY${columns.map((column) => `, ${column}`).join('')})`);
    db.run('INSERT INTO gpkg_contents (table_name, data_type, identifier, srs_id) VALUES (?, ?, ?, ?)', [table, 'features', table, 4326]);
    db.run('INSERT INTO gpkg_geometry_columns VALUES (?, ?, ?, ?, ?, ?)', [table, geom, 'GEOMETRY', 4326, 0, 0]);
    const names = [geom, ...source.columns.map((column) => column.name)];
    const insert = db.prepare(`INSERT INTO ${quote(table)} (${names.map(quote).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`);
    const box = emptyBox();
    const types = new Set<string>();
    try {
      for await (const page of source.pages) {
        db.exec('BEGIN');
        for (const feature of page) {
          const geometry = roundedGeometry(feature.geometry);
          if (geometry !== null) types.add(geometry.type);
          insert.run([geometry === null ? null : geometryBlob(geometry, box), ...source.columns.map((column) => sqlValue(feature.properties[column.name] ?? null))]);
        }
        db.exec('COMMIT');
      }
    } finally {
      insert.finalize();
    }
    if (box.minX <= box.maxX) db.run('UPDATE gpkg_contents SET min_x = ?, min_y = ?, max_x = ?, max_y = ?', [box.minX, box.minY, box.maxX, box.maxY]);
    // Declared GEOMETRY while the pages stream in; narrowed once every geometry is known to be of one type.
    if (types.size === 1) db.run('UPDATE gpkg_geometry_columns SET geometry_type_name = ?', [[...types][0]!.toUpperCase()]);
  } finally {
    db.close();
  }
}

/** A GeoPackage of the source, written to a temporary file and streamed; the file is gone once read (or abandoned). */
export async function geopackageFile(source: ExportSource): Promise<Readable> {
  const directory = await mkdtemp(join(tmpdir(), 'landscreen-export-'));
  const path = join(directory, `${source.name}.gpkg`);
  try {
    await writeGeoPackage(path, source);
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  const stream = createReadStream(path);
  stream.once('close', () => void rm(directory, { recursive: true, force: true }));
  return stream;
}
