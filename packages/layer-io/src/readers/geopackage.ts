// GeoPackage (OGC 12-128): an SQLite database read through node-sqlite3-wasm, SQLite compiled to
// WebAssembly whose file system layer reads pages from the file on demand, so memory does not grow
// with the file (sql.js would load the whole database). One feature table is a layer: its rows in
// rowid order, the geometry column's GeoPackage binary (a header, then WKB) decoded here, every
// other column an attribute. The CRS is the table's srs_id in gpkg_spatial_ref_sys.

import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { crsFromEpsg, crsFromWkt, isWgs84, transformToWgs84, WGS84, type Crs } from '../crs/crs.js';
import { assumedLonLat } from '../crs/assumed.js';
import { CrsError, LayerReadError, errorMessage } from '../errors.js';
import { WkbError } from '../geometry/wkb.js';
import type { ReadLayerOptions } from '../types.js';
import { checkedGeometry, pickLayer } from './checked-geometry.js';
import { decodeGeoPackageGeometry } from './geopackage-geometry.js';
import type { ByteCounter, FormatReader, RawFeature } from './raw-feature.js';

type Database = sqlite.Database;

export interface GeoPackageLayer {
  name: string;
  geometryColumn: string;
  geometryType: string;
  srsId: number;
  extent: [number, number, number, number] | null;
}

export interface GeoPackageColumn {
  name: string;
  /** The declared SQLite type (INTEGER, TEXT, REAL, BOOLEAN, DATE, …). */
  type: string;
}

export function readGeoPackage(path: string, options: ReadLayerOptions): FormatReader {
  const bytes: ByteCounter = { bytesRead: 0, totalBytes: 0 };
  return { features: features(path, options, bytes), bytes, hasSchema: true };
}

async function* features(path: string, options: ReadLayerOptions, bytes: ByteCounter): AsyncGenerator<RawFeature> {
  bytes.totalBytes = (await stat(path)).size;
  const db = openGeoPackage(path);
  try {
    const layers = geoPackageLayers(path, db);
    const layer = layers.find((candidate) => candidate.name === pickLayer(path, layers.map((l) => l.name), options.layer))!;
    const crs = geoPackageCrs(path, db, layer);
    const toWgs84 = transformToWgs84(crs);
    const columns = attributeColumns(db, layer);
    const range = rowRange(db, layer, options.part);
    const total = range === null ? featureCount(db, layer) : range.to - range.from;
    const select = [...columns.map((column) => quote(column.name)), quote(layer.geometryColumn)].join(', ');
    const statement =
      range === null
        ? db.prepare(`select ${select} from ${quote(layer.name)}`)
        : db.prepare(`select ${select} from ${quote(layer.name)} where rowid >= ${range.from} and rowid < ${range.to} order by rowid`);
    try {
      // The column's conversion is chosen once, not by matching its declared type on every row.
      const converters = columns.map((column) => ({ name: column.name, convert: attributeConverter(column.type) }));
      let index = 0;
      for (const row of statement.iterate()) {
        index++;
        // In a part, the ordinal within the file is not known: the reader of the whole file names it.
        const position = { index };
        let geometry;
        try {
          geometry = decodeGeoPackageGeometry(row[layer.geometryColumn] as Uint8Array | null);
        } catch (error) {
          if (error instanceof WkbError) throw new LayerReadError(path, `geometry: ${error.message}`, position);
          throw error;
        }
        const properties: Record<string, unknown> = {};
        for (const { name, convert } of converters) properties[name] = convert(row[name]);
        bytes.bytesRead = total === 0 ? bytes.totalBytes : Math.round((bytes.totalBytes * index) / total);
        yield { position, geometry: checkedGeometry(path, geometry, position), properties, toWgs84, crsLabel: crs.label };
      }
    } finally {
      statement.finalize();
    }
  } catch (error) {
    throw asLayerError(path, error);
  } finally {
    db.close();
  }
}

export function openGeoPackage(path: string): Database {
  let db: Database | undefined;
  try {
    db = new PrivatelyLockedDatabase(path);
    db.get('select count(*) from gpkg_contents');
    return db;
  } catch (error) {
    db?.close();
    throw new LayerReadError(path, `not a readable GeoPackage: ${errorMessage(error)}`);
  }
}

/**
 * node-sqlite3-wasm locks a file by creating the directory `<file>.lock` beside it, even to read:
 * an import killed while reading (a worker ended, Ctrl-C, SIGKILL) left it behind and every later
 * import of that file was refused as "database is locked", and two imports of one file could not
 * run at once. Reading only, there is nothing to lock against: the file is opened through a link
 * in a private folder, so the lock lands there and goes with the folder.
 */
class PrivatelyLockedDatabase extends sqlite.Database {
  private readonly folder: string;

  constructor(path: string) {
    const folder = mkdtempSync(join(tmpdir(), 'landscreen-gpkg-'));
    const link = join(folder, 'layer.gpkg');
    try {
      symlinkSync(resolve(path), link);
      super(link, { readOnly: true, fileMustExist: true });
    } catch (error) {
      rmSync(folder, { recursive: true, force: true });
      throw error;
    }
    this.folder = folder;
  }

  override close(): void {
    try {
      if (this.isOpen) super.close();
    } finally {
      rmSync(this.folder, { recursive: true, force: true });
    }
  }
}

/** The feature tables (gpkg_contents rows of data_type "features"), by name. */
export function geoPackageLayers(path: string, db: Database): GeoPackageLayer[] {
  const rows = db.all(
    `select c.table_name as name, g.column_name as geometry_column, g.geometry_type_name as geometry_type, g.srs_id as srs_id,
            c.min_x as min_x, c.min_y as min_y, c.max_x as max_x, c.max_y as max_y
     from gpkg_contents c join gpkg_geometry_columns g on g.table_name = c.table_name
     where lower(c.data_type) = 'features' order by c.table_name`,
  );
  if (rows.length === 0) throw new LayerReadError(path, 'the GeoPackage holds no feature table (gpkg_contents lists none of data_type "features")');
  return rows.map((row) => {
    const extent = [row.min_x, row.min_y, row.max_x, row.max_y].map((value) => (value === null ? NaN : Number(value)));
    return {
      name: String(row.name),
      geometryColumn: String(row.geometry_column),
      geometryType: String(row.geometry_type),
      srsId: Number(row.srs_id),
      extent: extent.some(Number.isNaN) ? null : (extent as [number, number, number, number]),
    };
  });
}

/** Every column but the geometry and the integer primary key (the feature id). */
export function attributeColumns(db: Database, layer: GeoPackageLayer): GeoPackageColumn[] {
  return db
    .all(`pragma table_info(${quote(layer.name)})`)
    .filter((column) => column.name !== layer.geometryColumn && !(Number(column.pk) === 1 && /^integer$/i.test(String(column.type))))
    .filter((column) => !/^blob/i.test(String(column.type)))
    .map((column) => ({ name: String(column.name), type: String(column.type) }));
}

/** GDAL keeps the count in gpkg_ogr_contents; counting the rows reads every page of the table. */
export function featureCount(db: Database, layer: GeoPackageLayer): number {
  try {
    const kept = db.get('select feature_count as n from gpkg_ogr_contents where table_name = ?', [layer.name])?.n;
    if (typeof kept === 'number' && kept >= 0) return kept;
  } catch {
    // no gpkg_ogr_contents: a GeoPackage not written by GDAL
  }
  return Number(db.get(`select count(*) as n from ${quote(layer.name)}`)?.n ?? 0);
}

/**
 * Part `index` of `of` equal row-id ranges of the table. Its ends are two queries, each one
 * b-tree lookup: SQLite takes the min/max shortcut only for a query of one min() or max(), and
 * `select min(rowid), max(rowid)` scanned every page of the table in every part's reader.
 */
function rowRange(db: Database, layer: GeoPackageLayer, part: ReadLayerOptions['part']): { from: number; to: number } | null {
  if (part === undefined) return null;
  const lowest = db.get(`select min(rowid) as low from ${quote(layer.name)}`)?.low;
  const highest = db.get(`select max(rowid) as high from ${quote(layer.name)}`)?.high;
  const low = Number(lowest ?? 0);
  const span = highest === null || highest === undefined ? 0 : Number(highest) - low + 1;
  return { from: low + Math.floor((span * part.index) / part.of), to: low + Math.floor((span * (part.index + 1)) / part.of) };
}

/**
 * srs_id 0 and -1 are the standard's "undefined geographic" and "undefined Cartesian"; otherwise
 * an EPSG code this build knows, else the row's WKT definition.
 */
export function geoPackageCrs(path: string, db: Database, layer: GeoPackageLayer): Crs {
  try {
    if (layer.srsId === 0 || layer.srsId === -1) return assumedLonLat(layer.extent, `srs_id ${layer.srsId}, undefined`);
    const srs = db.get('select organization, organization_coordsys_id, definition from gpkg_spatial_ref_sys where srs_id = ?', [layer.srsId]);
    if (srs === null) throw new CrsError(`srs_id ${layer.srsId} is not in gpkg_spatial_ref_sys`);
    const code = Number(srs.organization_coordsys_id);
    if (String(srs.organization).toUpperCase() === 'EPSG') {
      if (code === 4326) return WGS84;
      try {
        return crsFromEpsg(code);
      } catch (error) {
        if (!(error instanceof CrsError) || typeof srs.definition !== 'string' || srs.definition === 'undefined') throw error;
      }
    }
    const crs = crsFromWkt(String(srs.definition));
    return isWgs84(crs) ? WGS84 : crs;
  } catch (error) {
    if (error instanceof CrsError) throw new LayerReadError(path, `layer ${JSON.stringify(layer.name)}: ${error.message}`);
    throw error;
  }
}

/** SQLite values as attributes: booleans by their declared type, integers as numbers while exact. */
function attributeConverter(type: string): (value: unknown) => unknown {
  return /^bool/i.test(type) ? booleanValue : plainValue;
}

function plainValue(value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  return value;
}

function booleanValue(value: unknown): unknown {
  if (typeof value === 'number') return value !== 0;
  return plainValue(value);
}

export function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

function asLayerError(path: string, error: unknown): unknown {
  if (error instanceof LayerReadError || !(error instanceof Error)) return error;
  if (error.name === 'SQLite3Error' || error.constructor.name === 'SQLite3Error') return new LayerReadError(path, `not a readable GeoPackage: ${error.message}`);
  return error;
}
