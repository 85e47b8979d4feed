// `landscreen inspect FILE`: what a layer file holds, before anything is imported: its format
// and, per layer (a GeoPackage's or FileGDB's tables, a workbook's sheets, else the file), the
// geometry kinds, the CRS, the feature count and the attributes with their types. GeoPackage and
// FileGDB answer from their own metadata; the other formats are read through once, as an import
// would read them, so what inspect shows is what the import will see.

import { basename } from 'node:path';
import { errorMessage, LayerReadError } from './errors.js';
import { detectFormat } from './format.js';
import { readGrid } from './grid/read-grid.js';
import { readLayer } from './read-layer.js';
// Each format's reader (and its library: SQLite in WebAssembly, exceljs, GDAL) loads when a file
// of its format is inspected: loading them all took a second of CPU.
import type { GdalChoice, LayerFormat } from './types.js';

export type AttributeType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'other';

export interface LayerDescription {
  /** The layer's name (`--layer`), a sheet's name (`--sheet`), or the file's name. */
  name: string;
  /** GeoJSON geometry types present (or declared), "grid" for a raster. */
  geometryKinds: string[];
  /** The CRS as the import will label it; a refusal reads "refused: …". */
  crs: string;
  featureCount: number;
  attributes: { name: string; type: AttributeType }[];
  /** Why the layer cannot be imported as it is, when it cannot. */
  problem?: string;
}

export interface LayerFileDescription {
  format: LayerFormat;
  layers: LayerDescription[];
}

export interface InspectOptions {
  headerRow?: number;
  gdal?: GdalChoice;
}

export async function inspectLayerFile(path: string, options: InspectOptions = {}): Promise<LayerFileDescription> {
  const format = await detectFormat(path);
  switch (format) {
    case 'gpkg':
      return { format, layers: await inspectGeoPackage(path) };
    case 'filegdb':
      return { format, layers: await inspectFileGdb(path, options.gdal) };
    case 'geotiff': {
      const grid = await readGrid(path);
      return { format, layers: [{ name: basename(path), geometryKinds: ['grid'], crs: grid.crs.label, featureCount: grid.values.length, attributes: [] }] };
    }
    case 'xlsx': {
      const layers: LayerDescription[] = [];
      const { xlsxSheetNames } = await import('./readers/xlsx.js');
      for (const sheet of await xlsxSheetNames(path)) layers.push(await byReading(path, sheet, { format, sheet, headerRow: options.headerRow }));
      return { format, layers };
    }
    default:
      return { format, layers: [await byReading(path, basename(path), { format })] };
  }
}

async function inspectGeoPackage(path: string): Promise<LayerDescription[]> {
  const { attributeColumns, featureCount, geoPackageCrs, geoPackageLayers, openGeoPackage } = await import('./readers/geopackage.js');
  const db = openGeoPackage(path);
  try {
    return geoPackageLayers(path, db).map((layer) => {
      let crs: string;
      let problem: string | undefined;
      try {
        crs = geoPackageCrs(path, db, layer).label;
      } catch (error) {
        problem = error instanceof LayerReadError ? error.reason : errorMessage(error);
        crs = `refused: ${problem}`;
      }
      return {
        name: layer.name,
        geometryKinds: [geometryKind(layer.geometryType)],
        crs,
        featureCount: featureCount(db, layer),
        attributes: attributeColumns(db, layer).map((column) => ({ name: column.name, type: sqliteType(column.type) })),
        ...(problem === undefined ? {} : { problem }),
      };
    });
  } finally {
    db.close();
  }
}

async function inspectFileGdb(path: string, gdal: GdalChoice | undefined): Promise<LayerDescription[]> {
  const { fileGdbLayers, layerCrsLabel, openFileGdb } = await import('./readers/filegdb.js');
  const source = await openFileGdb(path);
  try {
    return (await fileGdbLayers(source.folder, gdal)).map((layer) => {
      let crs: string;
      let problem: string | undefined;
      try {
        crs = layerCrsLabel(path, layer);
      } catch (error) {
        problem = error instanceof LayerReadError ? error.reason : errorMessage(error);
        crs = `refused: ${problem}`;
      }
      return {
        name: layer.name,
        geometryKinds: [geometryKind(layer.geometryType)],
        crs,
        featureCount: layer.featureCount,
        attributes: layer.fields.map((field) => ({ name: field.name, type: gdalType(field.type) })),
        ...(problem === undefined ? {} : { problem }),
      };
    });
  } finally {
    await source.close();
  }
}

/** Reads the layer through as the import would, noting kinds, CRS, count and attribute types. */
async function byReading(path: string, name: string, options: Parameters<typeof readLayer>[1]): Promise<LayerDescription> {
  const kinds = new Set<string>();
  const attributes = new Map<string, Set<AttributeType>>();
  let crs = '';
  let count = 0;
  try {
    for await (const feature of readLayer(path, options)) {
      count++;
      crs = feature.crs;
      kinds.add(feature.geometry.type);
      for (const [key, value] of Object.entries(feature.properties)) {
        const types = attributes.get(key) ?? new Set<AttributeType>();
        attributes.set(key, types);
        if (value !== null && value !== undefined) types.add(valueType(value));
      }
    }
  } catch (error) {
    if (!(error instanceof LayerReadError)) throw error;
    return { name, geometryKinds: [...kinds], crs: crs || 'unknown', featureCount: count, attributes: described(attributes), problem: error.message };
  }
  return { name, geometryKinds: [...kinds], crs: crs || 'none (no features)', featureCount: count, attributes: described(attributes) };
}

function described(attributes: Map<string, Set<AttributeType>>): LayerDescription['attributes'] {
  return [...attributes].map(([name, types]) => ({ name, type: merged(types) }));
}

function merged(types: Set<AttributeType>): AttributeType {
  if (types.size === 0) return 'string';
  if (types.size === 1) return [...types][0];
  if ([...types].every((type) => type === 'integer' || type === 'number')) return 'number';
  return 'string';
}

function valueType(value: unknown): AttributeType {
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/.test(value) ? 'date' : 'string';
  return 'other';
}

function sqliteType(type: string): AttributeType {
  const upper = type.toUpperCase();
  if (/^(INT|INTEGER|TINYINT|SMALLINT|MEDIUMINT|BIGINT)/.test(upper)) return 'integer';
  if (/^(REAL|DOUBLE|FLOAT|NUMERIC|DECIMAL)/.test(upper)) return 'number';
  if (upper.startsWith('BOOL')) return 'boolean';
  if (upper.startsWith('DATE')) return 'date';
  return 'string';
}

function gdalType(type: string): AttributeType {
  if (/^Integer(64)?\(Boolean\)$/.test(type)) return 'boolean';
  if (/^Integer/.test(type)) return 'integer';
  if (/^Real/.test(type)) return 'number';
  if (/^(Date|DateTime|Time)/.test(type)) return 'date';
  if (/^String/.test(type)) return 'string';
  return 'other';
}

/** GDAL's and GeoPackage's geometry type names as GeoJSON's ("3D Multi Polygon" → MultiPolygon). */
function geometryKind(type: string): string {
  const plain = type.replace(/\s+/g, '').replace(/^3D/i, '').replace(/(25D|Z|M|ZM)$/, '').toUpperCase();
  const names: Record<string, string> = {
    POINT: 'Point',
    MULTIPOINT: 'MultiPoint',
    LINESTRING: 'LineString',
    MULTILINESTRING: 'MultiLineString',
    POLYGON: 'Polygon',
    MULTIPOLYGON: 'MultiPolygon',
  };
  return names[plain] ?? (plain === 'GEOMETRY' || plain === 'UNKNOWN(ANY)' ? 'any' : type);
}
