import { describe, expect, it } from 'vitest';
import { CrsError } from '../errors.js';
import { metresBetween, utmNorthingOnCentralMeridian, webMercatorToLonLat } from '../testing/geodesy.js';
import { crsFromEpsg, crsFromWkt, transformToWgs84 } from './crs.js';
import { crsFromGeoJson } from './geojson-crs.js';

function toLonLat(code: number, x: number, y: number): [number, number] {
  const transform = transformToWgs84(crsFromEpsg(code));
  if (transform === null) return [x, y];
  return transform(x, y);
}

describe('EPSG codes answered without a network', () => {
  it('WGS84 UTM (326xx): the CN Tower, 630084 m E 4833438 m N in zone 17, within 1 m', () => {
    expect(metresBetween(toLonLat(32617, 630084, 4833438), [-79.387139, 43.642567])).toBeLessThan(1);
  });

  it('NAD83 UTM (269xx), registered here: the central meridian at 30°N within 1 m', () => {
    expect(metresBetween(toLonLat(26914, 500000, utmNorthingOnCentralMeridian(30)), [-99, 30])).toBeLessThan(1);
    expect(metresBetween(toLonLat(26917, 500000, utmNorthingOnCentralMeridian(40)), [-81, 40])).toBeLessThan(1);
  });

  it('Web Mercator (3857 and ArcGIS 102100) as its closed form', () => {
    for (const code of [3857, 102100]) expect(metresBetween(toLonLat(code, -10_853_650, 3_503_550), webMercatorToLonLat(-10_853_650, 3_503_550))).toBeLessThan(0.01);
  });

  it('NAD83 / Conus Albers (5070): its origin is 23°N 96°W', () => {
    expect(metresBetween(toLonLat(5070, 0, 0), [-96, 23])).toBeLessThan(0.01);
    expect(metresBetween(toLonLat(6350, 0, 0), [-96, 23])).toBeLessThan(0.01);
  });

  it('geographic NAD83 (4269, 6318) as longitude/latitude, 4326 untouched', () => {
    expect(metresBetween(toLonLat(4269, -97.5, 30.25), [-97.5, 30.25])).toBeLessThan(0.01);
    expect(metresBetween(toLonLat(6318, -97.5, 30.25), [-97.5, 30.25])).toBeLessThan(0.01);
    expect(transformToWgs84(crsFromEpsg(4326))).toBeNull();
  });

  it('answers NaN for a position outside what the CRS can express (no silent wrap-around)', () => {
    // A UTM northing of 10¹² m comes back from proj4 as latitude 32°: the round trip catches it.
    expect(toLonLat(26914, 500000, 1e12)).toEqual([NaN, NaN]);
  });

  it('refuses a code that names no horizontal CRS (NAVD88 height), saying what it knows', () => {
    expect(() => crsFromEpsg(5703)).toThrow(CrsError);
    expect(() => crsFromEpsg(5703)).toThrow(/EPSG:5703 is not a CRS this build can reproject \(it knows the EPSG dataset's geographic and projected CRSs/);
    expect(() => crsFromEpsg(999_999)).toThrow(/EPSG:999999 is not a CRS this build can reproject/);
  });

  it('knows any projected CRS of the EPSG dataset by its code: State Plane Texas Central in US survey feet', () => {
    // NAD83 Texas Central (ftUS): its false origin (2,296,583.333 ftUS E, 9,842,500 ftUS N) is 29°40'N 100°20'W.
    const [lon, lat] = toLonLat(2277, 2_296_583.333, 9_842_500);
    expect(lon).toBeCloseTo(-100 - 1 / 3, 6);
    expect(lat).toBeCloseTo(29 + 2 / 3, 6);
  });
});

describe('.prj WKT', () => {
  it('reads an ESRI State Plane .prj in US survey feet (any CRS proj4 parses works from a .prj)', () => {
    // NAD83 Texas Central (ftUS): its false origin (2,296,583.333 ftUS E, 9,842,500 ftUS N) is 29°40'N 100°20'W.
    const prj =
      'PROJCS["NAD_1983_StatePlane_Texas_Central_FIPS_4203_Feet",GEOGCS["GCS_North_American_1983",DATUM["D_North_American_1983",' +
      'SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],' +
      'PROJECTION["Lambert_Conformal_Conic"],PARAMETER["False_Easting",2296583.333333333],PARAMETER["False_Northing",9842500.0],' +
      'PARAMETER["Central_Meridian",-100.3333333333333],PARAMETER["Standard_Parallel_1",30.11666666666667],' +
      'PARAMETER["Standard_Parallel_2",31.88333333333333],PARAMETER["Latitude_Of_Origin",29.66666666666667],UNIT["Foot_US",0.3048006096012192]]';
    const crs = crsFromWkt(prj);
    expect(crs.label).toBe('NAD_1983_StatePlane_Texas_Central_FIPS_4203_Feet');
    const transform = transformToWgs84(crs)!;
    expect(metresBetween(transform(2296583.333333333, 9842500), [-100 - 1 / 3, 29 + 2 / 3])).toBeLessThan(0.01);
  });

  it('refuses an empty or unparseable .prj', () => {
    expect(() => crsFromWkt('  ')).toThrow(/the \.prj is empty/);
    expect(() => crsFromWkt('PROJCS["Mystery",PROJECTION["Not_A_Projection"]]')).toThrow(CrsError);
  });
});

describe('GeoJSON "crs" member', () => {
  const named = (name: string) => ({ type: 'name', properties: { name } });

  it('reads the spellings of an EPSG code', () => {
    for (const name of ['urn:ogc:def:crs:EPSG::26914', 'urn:ogc:def:crs:EPSG:6.6:26914', 'EPSG:26914', 'http://www.opengis.net/def/crs/EPSG/0/26914']) {
      expect(crsFromGeoJson(named(name)).label).toBe('EPSG:26914');
    }
    expect(crsFromGeoJson({ type: 'EPSG', properties: { code: 3857 } }).label).toBe('EPSG:3857');
  });

  it('takes CRS84 and null for WGS84', () => {
    expect(crsFromGeoJson(named('urn:ogc:def:crs:OGC:1.3:CRS84')).label).toBe('EPSG:4326');
    expect(crsFromGeoJson(null).label).toBe('EPSG:4326');
  });

  it('refuses names and shapes it cannot tell', () => {
    expect(() => crsFromGeoJson(named('NAD83 / Texas Central'))).toThrow(/is not an EPSG code/);
    expect(() => crsFromGeoJson({ type: 'link', properties: { href: 'http://x' } })).toThrow(/does not name a CRS/);
  });
});
