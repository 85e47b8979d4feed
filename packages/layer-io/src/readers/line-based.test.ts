import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LayerReadError } from '../errors.js';
import { readLayer } from '../read-layer.js';
import { lonLatToWebMercator, metresBetween, utmNorthingOnCentralMeridian } from '../testing/geodesy.js';
import { collect, makeTempDir, rejection, type TempDir } from '../testing/temp-dir.js';
import type { LayerProgress } from '../types.js';

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(async () => {
  await dir.remove();
});

const point = (coordinates: number[], properties: object = {}) => ({ type: 'Feature', properties, geometry: { type: 'Point', coordinates } });

function collection(features: unknown[], crs?: string): string {
  const head = crs === undefined ? '' : `"crs": {"type": "name", "properties": {"name": "${crs}"}},\n`;
  return `{"type": "FeatureCollection",\n${head}"features": [\n${features.map((f) => JSON.stringify(f)).join(',\n')}\n]}\n`;
}

async function layerError(path: string, options = {}): Promise<LayerReadError> {
  const error = await rejection(() => collect(readLayer(path, options)));
  expect(error).toBeInstanceOf(LayerReadError);
  return error as LayerReadError;
}

describe('GeoJSON with a "crs" member', () => {
  it('reprojects NAD83 / UTM zone 14N (urn:ogc:def:crs:EPSG::26914): a point on the central meridian within 1 m', async () => {
    const northing = utmNorthingOnCentralMeridian(30);
    const file = await dir.write('utm.geojson', collection([point([500000, northing], { name: 'A' })], 'urn:ogc:def:crs:EPSG::26914'));
    const [feature] = await collect(readLayer(file));
    expect(metresBetween(feature.geometry.coordinates as number[], [-99, 30])).toBeLessThan(1);
    expect(feature.position).toEqual({ index: 1, line: 4 });
  });

  it('reprojects EPSG:3857 lines', async () => {
    const a = lonLatToWebMercator(-97.5, 30.25);
    const b = lonLatToWebMercator(-97.4, 30.3);
    const line = { type: 'Feature', properties: { voltage_kv: 345 }, geometry: { type: 'LineString', coordinates: [a, b] } };
    const [feature] = await collect(readLayer(await dir.write('merc.geojson', collection([line], 'EPSG:3857'))));
    const [p, q] = feature.geometry.coordinates as number[][];
    expect(metresBetween(p, [-97.5, 30.25])).toBeLessThan(0.01);
    expect(metresBetween(q, [-97.4, 30.3])).toBeLessThan(0.01);
  });

  it('takes a file without "crs" (or with CRS84) for WGS84, as RFC 7946 says', async () => {
    for (const crs of [undefined, 'urn:ogc:def:crs:OGC:1.3:CRS84']) {
      const [feature] = await collect(readLayer(await dir.write('wgs84.geojson', collection([point([-97.5, 30.25])], crs))));
      expect(feature.geometry.coordinates).toEqual([-97.5, 30.25]);
    }
  });

  it('refuses a CRS code it cannot reproject, naming the file and the code', async () => {
    const file = await dir.write('spcs.geojson', collection([point([3_100_000, 10_070_000])], 'urn:ogc:def:crs:EPSG::5703'));
    const error = await layerError(file);
    expect(error.message).toMatch(new RegExp(`^${file}: "crs" member \\(line 2\\): EPSG:5703 is not a CRS this build can reproject`));
  });

  it('refuses a "crs" that comes after the features it would change', async () => {
    const text = `{"type": "FeatureCollection", "features": [\n${JSON.stringify(point([500000, 3_300_000]))}\n],\n"crs": {"type": "name", "properties": {"name": "EPSG:26914"}}}\n`;
    const error = await layerError(await dir.write('late-crs.geojson', text), { chunkSize: 16 });
    // The projected point fails the WGS84 range check first, or the late "crs" is refused: either names the problem.
    expect(error.message).toMatch(/out of range for WGS84|comes after the first features/);
  });

  it('reports coordinates out of range after reprojection with the feature index and line', async () => {
    const file = await dir.write('range.geojson', collection([point([500000, 3_300_000]), point([500000, 1e12])], 'EPSG:26914'));
    const error = await layerError(file);
    expect(error.position).toEqual({ index: 2, line: 5 });
    expect(error.reason).toMatch(/^coordinates \[500000, 1000000000000\] in EPSG:26914 are out of range after reprojection to WGS84/);
  });

  it('reports projected coordinates in a file that declares no CRS', async () => {
    const error = await layerError(await dir.write('undeclared.geojson', collection([point([500000, 3_300_000])])));
    expect(error.position).toEqual({ index: 1, line: 3 });
    expect(error.reason).toMatch(/out of range for WGS84 longitude\/latitude/);
  });
});

describe('bad features with their position and reason', () => {
  const ring = [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 1],
  ];
  const cases: Array<[string, unknown, RegExp]> = [
    ['a ring not closed', { type: 'Polygon', coordinates: [ring] }, /ring must be closed/],
    ['an unknown geometry type', { type: 'Circle', coordinates: [0, 0] }, /unknown geometry type "Circle"/],
    ['an empty geometry', { type: 'Polygon', coordinates: [] }, /no geometry/],
    ['a null geometry', null, /no geometry/],
    ['a position that is not numbers', { type: 'Point', coordinates: ['a', 'b'] }, /a position must hold numbers/],
  ];
  for (const [what, geometry, reason] of cases) {
    it(`reports ${what} as feature 3 on its line`, async () => {
      const bad = { type: 'Feature', properties: {}, geometry };
      const file = await dir.write('bad.geojson', collection([point([1, 1]), point([2, 2]), bad]));
      const error = await layerError(file);
      expect(error.position).toEqual({ index: 3, line: 5 });
      expect(error.reason).toMatch(reason);
      expect(error.message).toMatch(new RegExp(`^${file}: feature 3 \\(line 5\\): `));
    });
  }

  it('reports a bad NDJSON line by feature and line, skipping blank lines in the count', async () => {
    const text = `${JSON.stringify(point([1, 1]))}\n\n${JSON.stringify(point([1, 2]))}\n{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1]}}\n`;
    const error = await layerError(await dir.write('bad.ndjson', text));
    expect(error.position).toEqual({ index: 3, line: 4 });
    expect(error.reason).toMatch(/a position must be an array/);
  });

  it('reports a bad CSV row by feature and line', async () => {
    const text = 'name,lat,lon\nA,30.25,-97.5\nB,95,-97.5\n';
    const error = await layerError(await dir.write('bad.csv', text));
    expect(error.position).toEqual({ index: 2, line: 3 });
    expect(error.reason).toMatch(/latitude 95 is outside -90..90/);
  });

  it('reports a CSV row without a location as a feature without geometry', async () => {
    const error = await layerError(await dir.write('nolocation.csv', 'name,lat,lon\nA,,\n'));
    expect(error.position).toEqual({ index: 1, line: 2 });
    expect(error.reason).toMatch(/no geometry/);
  });
});

describe('NDJSON and CSV layers', () => {
  it('reads NDJSON features and CSV rows with WKT or lat/lon', async () => {
    const ndjson = await collect(readLayer(await dir.write('ok.ndjson', `${JSON.stringify(point([-97.5, 30.25], { name: 'A' }))}\n`)));
    expect(ndjson.map((f) => f.properties)).toEqual([{ name: 'A' }]);
    const csv = await collect(
      readLayer(await dir.write('ok.csv', 'geoid,geometry\n"48453001100","POLYGON((-97.5 30.2, -97.4 30.2, -97.4 30.3, -97.5 30.2))"\n')),
    );
    expect(csv[0].properties).toEqual({ geoid: '48453001100' });
    expect(csv[0].geometry.type).toBe('Polygon');
    const latlon = await collect(readLayer(await dir.write('latlon.csv', 'name,lat,lon\nA,30.25,-97.5\n')));
    expect(latlon[0].geometry).toEqual({ type: 'Point', coordinates: [-97.5, 30.25] });
  });
});

describe('--map on GeoJSON', () => {
  it('renames attributes; a mapped attribute wins over one that already has the target name', async () => {
    const file = await dir.write('map.geojson', collection([point([1, 1], { VOLT: 345, voltage_kv: 'stale', OWNER: 'X' })]));
    const [feature] = await collect(readLayer(file, { map: new Map([['VOLT', 'voltage_kv']]) }));
    expect(feature.properties).toEqual({ voltage_kv: 345, OWNER: 'X' });
  });

  it('refuses a mapped attribute that no feature has, naming it', async () => {
    const file = await dir.write('map-missing.geojson', collection([point([1, 1], { VOLT: 345 }), point([1, 2], { OWNER: 'X' })]));
    const map = new Map([
      ['VOLT', 'voltage_kv'],
      ['OWNER', 'owner'],
      ['STATUS', 'status'],
    ]);
    const error = await layerError(file, { map });
    expect(error.message).toBe(`${file}: --map names an attribute the file does not have: "STATUS"`);
  });

  it('refuses a mapped CSV column the header lacks before the first feature', async () => {
    const file = await dir.write('map.csv', 'name,lat,lon\nA,30.25,-97.5\n');
    const error = await layerError(file, { map: new Map([['NAME', 'name']]) });
    expect(error.reason).toBe('--map names an attribute the file does not have: "NAME"');
  });
});

describe('progress', () => {
  it('reports bytes read up to the file size, with the feature count', async () => {
    const features = Array.from({ length: 50 }, (_, i) => point([i / 100, i / 100], { i }));
    const text = collection(features);
    const file = await dir.write('progress.geojson', text);
    const reports: LayerProgress[] = [];
    await collect(readLayer(file, { chunkSize: 256, onProgress: (p) => reports.push(p) }));
    expect(reports.length).toBeGreaterThan(5);
    expect(reports[reports.length - 1]).toEqual({ bytesRead: Buffer.byteLength(text), totalBytes: Buffer.byteLength(text), features: 50 });
    for (let i = 1; i < reports.length; i++) {
      expect(reports[i].bytesRead).toBeGreaterThanOrEqual(reports[i - 1].bytesRead);
      expect(reports[i].features).toBeGreaterThanOrEqual(reports[i - 1].features);
    }
  });
});
