import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LayerReadError } from '../errors.js';
import { readLayer } from '../read-layer.js';
import { metresBetween, webMercatorToLonLat } from '../testing/geodesy.js';
import { clockwise, writeShapefile } from '../testing/shapefile-writer.js';
import { collect, makeTempDir, rejection, type TempDir } from '../testing/temp-dir.js';
import { writeZip } from '../testing/zip-writer.js';
import type { LayerFeature, LayerProgress } from '../types.js';

// ArcGIS's .prj for WGS 84 / UTM zone 17N (EPSG:32617) and for Web Mercator (EPSG:3857).
const UTM_17N_PRJ =
  'PROJCS["WGS_1984_UTM_Zone_17N",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],' +
  'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["False_Easting",500000.0],' +
  'PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",-81.0],PARAMETER["Scale_Factor",0.9996],' +
  'PARAMETER["Latitude_Of_Origin",0.0],UNIT["Meter",1.0]]';
const WEB_MERCATOR_PRJ =
  'PROJCS["WGS_1984_Web_Mercator_Auxiliary_Sphere",GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],' +
  'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Mercator_Auxiliary_Sphere"],PARAMETER["False_Easting",0.0],' +
  'PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",0.0],PARAMETER["Standard_Parallel_1",0.0],' +
  'PARAMETER["Auxiliary_Sphere_Type",0.0],UNIT["Meter",1.0]]';

// The CN Tower, a textbook UTM example: 43.642567°N 79.387139°W is zone 17, 630084 m E 4833438 m N.
const CN_TOWER_UTM = [630084, 4833438];
const CN_TOWER_LON_LAT = [-79.387139, 43.642567];

const SUBSTATION_FIELDS = [
  { name: 'NAME', type: 'C' as const, length: 20 },
  { name: 'MAX_VOLT', type: 'N' as const, length: 6 },
  { name: 'GEOID', type: 'C' as const, length: 11 },
];

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(async () => {
  await dir.remove();
});

/** Writes NAME.shp/.shx/.dbf (+ .prj when given) and answers the .shp path. */
async function writeParts(
  name: string,
  bytes: ReturnType<typeof writeShapefile>,
  prj: string | null,
  extensions = { shp: '.shp', dbf: '.dbf', prj: '.prj' },
): Promise<string> {
  const shp = await dir.write(`${name}${extensions.shp}`, bytes.shp);
  await dir.write(`${name}.shx`, bytes.shx);
  await dir.write(`${name}${extensions.dbf}`, bytes.dbf);
  if (prj !== null) await dir.write(`${name}${extensions.prj}`, prj);
  return shp;
}

function substations(): ReturnType<typeof writeShapefile> {
  return writeShapefile('point', SUBSTATION_FIELDS, [
    { shape: CN_TOWER_UTM, attributes: { NAME: 'Tower', MAX_VOLT: 230, GEOID: '01001020100' } },
    { shape: [CN_TOWER_UTM[0] + 1000, CN_TOWER_UTM[1]], attributes: { NAME: 'East', MAX_VOLT: 115, GEOID: '01001020200' } },
  ]);
}

function expectNear(actual: number[], expected: number[], metres: number): void {
  expect(metresBetween(actual, expected)).toBeLessThan(metres);
}

describe('Shapefile with a .prj in another CRS', () => {
  it('reprojects UTM 17N points to WGS84 (a known UTM coordinate within 1 m) and keeps the .dbf attributes', async () => {
    const shp = await writeParts('utm', substations(), UTM_17N_PRJ);
    const features = await collect(readLayer(shp));
    expect(features).toHaveLength(2);
    const [tower, east] = features;
    expect(tower.geometry.type).toBe('Point');
    expectNear(tower.geometry.coordinates as number[], CN_TOWER_LON_LAT, 1);
    // 1 km east in UTM is ~1 km east on the ground (scale factor near 1 this close to the zone's middle).
    expect(metresBetween(east.geometry.coordinates as number[], tower.geometry.coordinates as number[])).toBeCloseTo(1000, -1);
    expect(tower.properties).toEqual({ NAME: 'Tower', MAX_VOLT: 230, GEOID: '01001020100' });
    expect(tower.position).toEqual({ index: 1, record: 1 });
    expect(east.position).toEqual({ index: 2, record: 2 });
  });

  it('reads the same features from a zip of the .shp, .shx, .dbf and .prj', async () => {
    const bytes = substations();
    const plain = await collect(readLayer(await writeParts('plain', bytes, UTM_17N_PRJ)));
    const zip = await dir.write(
      'zipped.zip',
      writeZip([
        { name: 'substations/subs.shp', data: bytes.shp },
        { name: 'substations/subs.shx', data: bytes.shx },
        { name: 'substations/subs.dbf', data: bytes.dbf },
        { name: 'substations/subs.prj', data: Buffer.from(UTM_17N_PRJ) },
        { name: '__MACOSX/substations/._subs.shp', data: Buffer.from('resource fork') },
      ]),
    );
    expect(await collect(readLayer(zip))).toEqual(plain);
  });

  it('reprojects Web Mercator polygons with a hole, wound as RFC 7946 (outer ring counter-clockwise)', async () => {
    const outer = clockwise([
      [-10_000_000, 4_000_000],
      [-10_000_000, 4_010_000],
      [-9_990_000, 4_010_000],
      [-9_990_000, 4_000_000],
      [-10_000_000, 4_000_000],
    ]);
    const hole = clockwise([
      [-9_996_000, 4_004_000],
      [-9_996_000, 4_006_000],
      [-9_994_000, 4_006_000],
      [-9_994_000, 4_004_000],
      [-9_996_000, 4_004_000],
    ]).reverse(); // holes run counter-clockwise in a Shapefile
    const bytes = writeShapefile('polygon', [{ name: 'WETLAND', type: 'C', length: 10 }], [
      { shape: [outer, hole], attributes: { WETLAND: 'PEM1' } },
    ]);
    const [wetland] = await collect(readLayer(await writeParts('mercator', bytes, WEB_MERCATOR_PRJ)));
    expect(wetland.geometry.type).toBe('Polygon');
    const rings = wetland.geometry.coordinates as number[][][];
    expect(rings).toHaveLength(2);
    expectNear(rings[0][0], webMercatorToLonLat(-10_000_000, 4_000_000), 0.01);
    expect(signedArea(rings[0])).toBeGreaterThan(0);
    expect(signedArea(rings[1])).toBeLessThan(0);
    for (const ring of rings) expect(ring[ring.length - 1]).toEqual(ring[0]);
  });

  it('finds siblings whatever the case of their extensions', async () => {
    const shp = await writeParts('MIXED', substations(), UTM_17N_PRJ, { shp: '.SHP', dbf: '.Dbf', prj: '.PRJ' });
    const [tower] = await collect(readLayer(shp));
    expectNear(tower.geometry.coordinates as number[], CN_TOWER_LON_LAT, 1);
    expect(tower.properties.NAME).toBe('Tower');
  });
});

describe('Shapefile CRS that cannot be known', () => {
  it('refuses projected coordinates without a .prj, naming the file and what is missing', async () => {
    const shp = await writeParts('noprj', substations(), null);
    const error = await rejection(() => collect(readLayer(shp)));
    expect(error).toBeInstanceOf(LayerReadError);
    expect((error as LayerReadError).file).toBe(shp);
    expect((error as Error).message).toContain(shp);
    expect((error as Error).message).toMatch(/has no \.prj .* not longitude\/latitude/);
  });

  it('takes coordinates for longitude/latitude without a .prj when they plausibly are', async () => {
    const bytes = writeShapefile('point', SUBSTATION_FIELDS, [{ shape: [-97.5, 30.25], attributes: { NAME: 'A', MAX_VOLT: 69, GEOID: null } }]);
    const [feature] = await collect(readLayer(await writeParts('lonlat', bytes, null)));
    expect(feature.geometry.coordinates).toEqual([-97.5, 30.25]);
    expect(feature.properties.GEOID).toBeNull();
  });

  it('refuses a .prj proj4 cannot understand', async () => {
    const shp = await writeParts('badprj', substations(), 'PROJCS["Mystery",PROJECTION["Not_A_Projection"]]');
    const error = await rejection(() => collect(readLayer(shp)));
    expect(error).toBeInstanceOf(LayerReadError);
    expect((error as Error).message).toContain(`${shp}: .prj: `);
  });
});

describe('Shapefile errors with their record number', () => {
  it('reports a null shape with its record number', async () => {
    const bytes = writeShapefile('point', SUBSTATION_FIELDS, [
      { shape: [-97.5, 30.25], attributes: { NAME: 'A', MAX_VOLT: 69, GEOID: null } },
      { shape: null, attributes: { NAME: 'B', MAX_VOLT: 69, GEOID: null } },
    ]);
    const shp = await writeParts('nullshape', bytes, null);
    const error = (await rejection(() => collect(readLayer(shp)))) as LayerReadError;
    expect(error.position).toEqual({ index: 2, record: 2 });
    expect(error.message).toBe(`${shp}: record 2: the feature has no geometry (null or empty)`);
  });

  it('reports coordinates out of range after reprojection with the record number', async () => {
    const bytes = writeShapefile('point', SUBSTATION_FIELDS, [
      { shape: CN_TOWER_UTM, attributes: { NAME: 'A', MAX_VOLT: 69, GEOID: null } },
      { shape: [1e12, 1e12], attributes: { NAME: 'B', MAX_VOLT: 69, GEOID: null } },
    ]);
    const shp = await writeParts('outofrange', bytes, UTM_17N_PRJ);
    const error = (await rejection(() => collect(readLayer(shp)))) as LayerReadError;
    expect(error.position).toEqual({ index: 2, record: 2 });
    expect(error.reason).toMatch(/out of range after reprojection to WGS84/);
  });

  it('reports a .dbf with fewer records than the .shp', async () => {
    const full = substations();
    const short = writeShapefile('point', SUBSTATION_FIELDS, [{ shape: CN_TOWER_UTM, attributes: { NAME: 'A', MAX_VOLT: 1, GEOID: null } }]);
    const shp = await writeParts('shortdbf', { ...full, dbf: short.dbf }, UTM_17N_PRJ);
    const error = (await rejection(() => collect(readLayer(shp)))) as LayerReadError;
    expect(error.position).toEqual({ index: 2, record: 2 });
    expect(error.reason).toBe('the .dbf has fewer records than the .shp');
  });
});

describe('Shapefile --map and progress', () => {
  it('renames .dbf fields onto source properties', async () => {
    const shp = await writeParts('mapped', substations(), UTM_17N_PRJ);
    const map = new Map([
      ['NAME', 'name'],
      ['MAX_VOLT', 'max_voltage_kv'],
    ]);
    const [tower] = await collect(readLayer(shp, { map }));
    expect(tower.properties).toEqual({ name: 'Tower', max_voltage_kv: 230, GEOID: '01001020100' });
  });

  it('refuses a mapped attribute the .dbf lacks, naming it, before any feature', async () => {
    const shp = await writeParts('mapmissing', substations(), UTM_17N_PRJ);
    const seen: LayerFeature[] = [];
    const error = await rejection(async () => {
      for await (const feature of readLayer(shp, { map: new Map([['STATUS', 'status']]) })) seen.push(feature);
    });
    expect((error as Error).message).toBe(`${shp}: --map names an attribute the file does not have: "STATUS"`);
    expect(seen).toEqual([]);
  });

  it('reports progress up to the .shp and .dbf sizes, with the feature count', async () => {
    const bytes = substations();
    const shp = await writeParts('progress', bytes, UTM_17N_PRJ);
    const reports: LayerProgress[] = [];
    await collect(readLayer(shp, { onProgress: (p) => reports.push(p) }));
    const last = reports[reports.length - 1];
    expect(last).toEqual({ bytesRead: bytes.shp.length + bytes.dbf.length, totalBytes: bytes.shp.length + bytes.dbf.length, features: 2 });
  });

  it('decodes the .dbf with the encoding its .cpg names', async () => {
    const bytes = writeShapefile('point', SUBSTATION_FIELDS, [{ shape: [-97.5, 30.25], attributes: { NAME: 'Peñasco', MAX_VOLT: 1, GEOID: null } }]);
    const shp = await writeParts('utf8', bytes, null);
    await dir.write('utf8.cpg', 'UTF-8\n');
    const [feature] = await collect(readLayer(shp));
    expect(feature.properties.NAME).toBe('Peñasco');
  });
});

describe('Shapefiles that cannot be read', () => {
  async function refusal(path: string): Promise<LayerReadError> {
    const error = await rejection(() => collect(readLayer(path)));
    expect(error).toBeInstanceOf(LayerReadError);
    return error as LayerReadError;
  }

  it('refuses a shape type the reader does not know (MultiPatch)', async () => {
    const bytes = substations();
    const shp = Buffer.from(bytes.shp);
    shp.writeInt32LE(31, 32);
    const error = await refusal(await writeParts('multipatch', { ...bytes, shp }, UTM_17N_PRJ));
    expect(error.reason).toBe('not a readable Shapefile: unsupported shape type: 31');
  });

  it('reports a truncated .shp at the record it cuts', async () => {
    const bytes = substations();
    const error = await refusal(await writeParts('truncated', { ...bytes, shp: bytes.shp.subarray(0, bytes.shp.length - 6) }, UTM_17N_PRJ));
    expect(error.position).toEqual({ index: 2, record: 2 });
    expect(error.reason).toMatch(/^unreadable record \(truncated or corrupt file\?\)/);
  });

  it('refuses a .cpg naming an unknown encoding', async () => {
    const shp = await writeParts('badcpg', substations(), UTM_17N_PRJ);
    await dir.write('badcpg.cpg', 'KLINGON-8');
    expect((await refusal(shp)).reason).toBe('the .cpg names an encoding this reader does not know: "KLINGON-8"');
  });

  it('refuses a zip holding no Shapefile, or several', async () => {
    const bytes = substations();
    const none = await dir.write('none.zip', writeZip([{ name: 'readme.txt', data: Buffer.from('hi') }]));
    expect((await refusal(none)).reason).toMatch(/^the zip holds no layer \(no \.shp, no \.gdb folder, no \.kml, no XLSX workbook; it holds readme\.txt\); readable formats are: /);
    const two = await dir.write(
      'two.zip',
      writeZip([
        { name: 'a.shp', data: bytes.shp },
        { name: 'b.shp', data: bytes.shp },
      ]),
    );
    expect((await refusal(two)).reason).toBe('the zip holds 2 shapefiles (a.shp, b.shp); zip one layer per file');
  });

  it('refuses a .zip that is not a zip', async () => {
    const file = await dir.write('broken.zip', 'not a zip at all');
    expect((await refusal(file)).reason).toMatch(/^not a readable zip file: /);
  });
});

function signedArea(ring: number[][]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  return sum;
}
