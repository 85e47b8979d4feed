import type { Readable } from 'node:stream';
import yazl from 'yazl';
import { dbfTable, shortNames } from './dbf-table.js';
import { roundedGeometry } from './geometry.js';
import type { ExportFeature, ExportSource } from './model.js';
import { SHAPE, shapeTypeOf, shpAndShx, type ShapeType } from './shp-records.js';

/** WGS84 as ESRI writes it in a .prj. */
const WGS84_PRJ =
  'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';

/**
 * A Shapefile's .shp and .dbf must know their record count and extent before the first record,
 * so the features are gathered first: at most this many (docs/decisions.md, "Exports").
 */
export const MAX_SHAPEFILE_FEATURES = 100_000;

export class ExportTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`a Shapefile export holds at most ${limit} features`);
  }
}

/** Polygons first: a parcel layer's own name goes to its polygons. */
const ORDER: readonly ShapeType[] = [SHAPE.polygon, SHAPE.polyline, SHAPE.point];
const SUFFIX: Readonly<Record<number, string>> = { [SHAPE.polygon]: '', [SHAPE.polyline]: '_lines', [SHAPE.point]: '_points' };

/**
 * The layers of the zip: one per shape type present (a Shapefile holds one type). A feature
 * without a geometry a Shapefile can hold is a null shape of the first layer, so no record is lost.
 */
function layersOf(features: readonly ExportFeature[]): { type: ShapeType; features: ExportFeature[] }[] {
  const byType = new Map<ShapeType, ExportFeature[]>();
  const nulls: ExportFeature[] = [];
  for (const feature of features) {
    const type = shapeTypeOf(feature.geometry);
    if (type === null) nulls.push(feature);
    else {
      let list = byType.get(type);
      if (!list) byType.set(type, (list = []));
      list.push(feature);
    }
  }
  const layers = ORDER.filter((type) => byType.has(type)).map((type) => ({ type, features: byType.get(type)! }));
  if (layers.length === 0) return [{ type: SHAPE.polygon, features: nulls }];
  layers[0]!.features.push(...nulls);
  return layers;
}

/** Gathers the source's features, rounded, refusing more than the bound. */
async function gather(source: ExportSource, limit: number): Promise<ExportFeature[]> {
  const features: ExportFeature[] = [];
  for await (const page of source.pages) {
    if (features.length + page.length > limit) throw new ExportTooLargeError(limit);
    for (const feature of page) features.push({ geometry: roundedGeometry(feature.geometry), properties: feature.properties });
  }
  return features;
}

/**
 * A zipped ESRI Shapefile: per layer its .shp, .shx, .dbf, .prj (WGS84) and .cpg (UTF-8), plus
 * `<name>_columns.txt` mapping the 10-character dBase field names to the full column names.
 */
export async function shapefileZip(source: ExportSource, limit = MAX_SHAPEFILE_FEATURES): Promise<Readable> {
  const features = await gather(source, limit);
  const zip = new yazl.ZipFile();
  for (const layer of layersOf(features)) {
    const base = `${source.name}${SUFFIX[layer.type]}`;
    const { shp, shx } = shpAndShx(
      layer.features.map((feature) => feature.geometry),
      layer.type,
    );
    zip.addBuffer(shp, `${base}.shp`);
    zip.addBuffer(shx, `${base}.shx`);
    zip.addBuffer(dbfTable(source.columns, layer.features), `${base}.dbf`);
    zip.addBuffer(Buffer.from(WGS84_PRJ), `${base}.prj`);
    zip.addBuffer(Buffer.from('UTF-8'), `${base}.cpg`);
  }
  const names = shortNames(source.columns);
  const mapping = source.columns.map((column, at) => `${names[at]}\t${column.name}`).join('\n');
  zip.addBuffer(Buffer.from(`dbf_field\tcolumn\n${mapping}\n`), `${source.name}_columns.txt`);
  zip.end();
  return zip.outputStream as Readable;
}
