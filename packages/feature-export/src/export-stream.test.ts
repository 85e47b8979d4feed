import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { kml as kmlToGeoJson } from '@tmcw/togeojson';
import { DOMParser } from '@xmldom/xmldom';
import * as shapefile from 'shapefile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { exportStream } from './export-stream.js';
import type { ExportColumn, ExportFeature, ExportFormat, ExportSource } from './model.js';
import { ExportTooLargeError } from './shapefile.js';

const COLUMNS: ExportColumn[] = [
  { name: 'parcel_key', kind: 'string' },
  { name: 'score', kind: 'number' },
  { name: 'within_floodplain_polygon', kind: 'boolean' },
  { name: 'nearest_substation_distance_m', kind: 'number' },
  { name: 'nearest_substation_max_voltage_kv', kind: 'number' },
  { name: 'owner_name', kind: 'string' },
];

const square = (x: number, y: number) => ({ type: 'Polygon', coordinates: [[[x, y], [x + 0.01, y], [x + 0.01, y + 0.01], [x, y + 0.01], [x, y]]] });
const FEATURES: ExportFeature[] = [
  { geometry: square(-97.7, 30.3), properties: { parcel_key: 'p1', score: 94.2308, within_floodplain_polygon: false, nearest_substation_distance_m: 174.4, nearest_substation_max_voltage_kv: 345, owner_name: 'Ñandú "Ranch", LLC' } },
  {
    geometry: { type: 'MultiPolygon', coordinates: [square(-97.6, 30.3).coordinates, square(-97.5, 30.3).coordinates] },
    properties: { parcel_key: 'p2', score: 62.5, within_floodplain_polygon: null, nearest_substation_distance_m: null, nearest_substation_max_voltage_kv: 138, owner_name: null },
  },
  { geometry: { type: 'Point', coordinates: [-97.123456789, 30.987654321] }, properties: { parcel_key: 'p3', score: 25, within_floodplain_polygon: true, nearest_substation_distance_m: 9000, nearest_substation_max_voltage_kv: null, owner_name: 'Acme' } },
  { geometry: null, properties: { parcel_key: 'p4', score: 0, within_floodplain_polygon: false, nearest_substation_distance_m: 1, nearest_substation_max_voltage_kv: 1, owner_name: 'Nowhere' } },
];

function source(features = FEATURES, pageSize = 2): ExportSource {
  async function* pages() {
    for (let at = 0; at < features.length; at += pageSize) yield features.slice(at, at + pageSize);
  }
  return { name: 'ranking', columns: COLUMNS, pages: pages() };
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

const exported = async (format: ExportFormat, features = FEATURES) => bytesOf(await exportStream(format, source(features)));

async function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const archive = await new Promise<yauzl.ZipFile>((resolve, reject) => yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file!))));
  await new Promise<void>((resolve, reject) => {
    archive.on('entry', (entry: yauzl.Entry) =>
      archive.openReadStream(entry, async (error, stream) => {
        if (error) return reject(error);
        files.set(entry.fileName, await bytesOf(stream!));
        archive.readEntry();
      }),
    );
    archive.on('end', resolve);
    archive.on('error', reject);
    archive.readEntry();
  });
  return files;
}

const hasOgr = existsSync('/usr/bin/ogrinfo');
let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'feature-export-test-'));
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe('exports read back by independent readers', () => {
  it('GeoJSON: a FeatureCollection JSON.parse reads, coordinates rounded to 1e-7°', async () => {
    const collection = JSON.parse((await exported('geojson')).toString('utf8'));
    expect(collection.type).toBe('FeatureCollection');
    expect(collection.features.map((feature: any) => feature.properties)).toEqual(FEATURES.map((feature) => feature.properties));
    expect(collection.features[2].geometry).toEqual({ type: 'Point', coordinates: [-97.1234568, 30.9876543] });
    expect(collection.features[3].geometry).toBeNull();
    expect(JSON.parse((await exported('geojson', [])).toString())).toEqual({ type: 'FeatureCollection', features: [] });
  });

  it('CSV: a column per export column and the geometry as WKT, quoted where needed', async () => {
    const text = (await exported('csv')).toString('utf8');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('parcel_key,score,within_floodplain_polygon,nearest_substation_distance_m,nearest_substation_max_voltage_kv,owner_name,geometry_wkt');
    expect(lines[1]).toMatch(/^p1,94\.2308,false,174\.4,345,"Ñandú ""Ranch"", LLC","POLYGON\(\(-97\.7 30\.3,/);
    expect(lines[3]).toBe('p3,25,true,9000,,Acme,POINT(-97.1234568 30.9876543)');
    expect(lines[4]).toBe('p4,0,false,1,1,Nowhere,');
  });

  it('KML: @tmcw/togeojson reads every placemark back with its data', async () => {
    const text = (await exported('kml')).toString('utf8');
    const document = new DOMParser().parseFromString(text, 'text/xml');
    const collection = kmlToGeoJson(document as never);
    expect(collection.features).toHaveLength(4);
    expect(collection.features[0]!.properties).toMatchObject({ name: 'p1', score: '94.2308', owner_name: 'Ñandú "Ranch", LLC', within_floodplain_polygon: 'false' });
    // A MultiGeometry of two polygons, which togeojson reads as a GeometryCollection.
    expect(collection.features[1]!.geometry).toMatchObject({ type: 'GeometryCollection', geometries: [{ type: 'Polygon' }, { type: 'Polygon' }] });
    expect(collection.features[2]!.geometry).toEqual({ type: 'Point', coordinates: [-97.1234568, 30.9876543] });
    expect(collection.features[1]!.properties).not.toHaveProperty('owner_name');
  });

  it('Shapefile: the `shapefile` reader reads each layer of the zip, with short field names mapped', async () => {
    const files = await unzip(await exported('shapefile'));
    expect([...files.keys()].sort()).toEqual(
      ['ranking.cpg', 'ranking.dbf', 'ranking.prj', 'ranking.shp', 'ranking.shx', 'ranking_columns.txt', 'ranking_points.cpg', 'ranking_points.dbf', 'ranking_points.prj', 'ranking_points.shp', 'ranking_points.shx'].sort(),
    );
    const polygons = await shapefile.read(files.get('ranking.shp')!, files.get('ranking.dbf')!, { encoding: 'utf-8' });
    expect(polygons.features.map((feature) => feature.properties!.parcel_key)).toEqual(['p1', 'p2', 'p4']);
    expect(polygons.features[0]!.properties).toMatchObject({ score: 94.2308, within_flo: 'false', nearest_su: 174.4, nearest__1: 345, owner_name: 'Ñandú "Ranch", LLC' });
    expect(polygons.features[1]!.geometry.type).toBe('MultiPolygon');
    expect(polygons.features[2]!.geometry).toBeNull();
    const points = await shapefile.read(files.get('ranking_points.shp')!, files.get('ranking_points.dbf')!, { encoding: 'utf-8' });
    expect(points.features).toEqual([expect.objectContaining({ geometry: { type: 'Point', coordinates: [-97.1234568, 30.9876543] } })]);
    expect(files.get('ranking_columns.txt')!.toString()).toContain('nearest__1\tnearest_substation_max_voltage_kv');
  });

  it.skipIf(!hasOgr)('Shapefile and GeoPackage: GDAL opens them and counts the features', async () => {
    const zip = join(work, 'ranking.shp.zip');
    await writeFile(zip, await exported('shapefile'));
    const shp = execFileSync('ogrinfo', ['-ro', '-al', '-so', `/vsizip/${zip}/ranking.shp`], { encoding: 'utf8' });
    expect(shp).toMatch(/Geometry: Polygon/);
    expect(shp).toMatch(/Feature Count: 3/);
    const gpkg = join(work, 'ranking.gpkg');
    await writeFile(gpkg, await exported('gpkg'));
    const info = execFileSync('ogrinfo', ['-ro', '-al', gpkg], { encoding: 'utf8' });
    expect(info).toMatch(/Layer name: ranking/);
    expect(info).toMatch(/Feature Count: 4/);
    expect(info).toMatch(/owner_name \(String\) = Ñandú "Ranch", LLC/);
    expect(info).toMatch(/POINT \(-97\.1234568 30\.9876543\)/);
    expect(info).toMatch(/MULTIPOLYGON/);
  });

  it('Shapefile: refuses more features than its bound before writing anything', async () => {
    const many = Array.from({ length: 12 }, (_, n) => ({ ...FEATURES[0]!, properties: { ...FEATURES[0]!.properties, parcel_key: `p${n}` } }));
    const { shapefileZip } = await import('./shapefile.js');
    await expect(shapefileZip(source(many), 10)).rejects.toBeInstanceOf(ExportTooLargeError);
  });
});
