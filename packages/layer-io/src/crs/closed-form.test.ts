import fc from 'fast-check';
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import { metresBetween } from '../testing/geodesy.js';
import { closedFormToWgs84, type ParsedProjection } from './closed-form.js';
import { crsFromEpsg, crsFromWkt } from './crs.js';
import { registerDefinitions } from './definitions.js';

registerDefinitions();

function closedForm(definition: string) {
  const converter = proj4(definition, 'EPSG:4326');
  return { converter, inverse: closedFormToWgs84(new proj4.Proj(definition) as unknown as ParsedProjection, converter) };
}

/** 180° and -180° are one meridian. */
function metresAcross(a: [number, number], b: [number, number]): number {
  const dLon = a[0] - b[0];
  return metresBetween([a[0] - 360 * Math.round(dLon / 360), a[1]], b);
}

const ALBERS = ['EPSG:5070', 'EPSG:6350', '+proj=aea +lat_0=-32 +lon_0=132 +lat_1=-18 +lat_2=-36 +x_0=0 +y_0=0 +ellps=GRS80 +towgs84=0,0,0 +units=m'];

describe('closed-form inverses against proj4 (the general path)', () => {
  it.each(ALBERS)('Albers Equal Area (%s) within 1 mm of proj4 over and beyond the conterminous area', (definition) => {
    const { converter, inverse } = closedForm(definition);
    expect(inverse).not.toBeNull();
    const lon0 = (new proj4.Proj(definition) as unknown as ParsedProjection).long0! * (180 / Math.PI);
    fc.assert(
      fc.property(fc.double({ min: -70, max: 70, noNaN: true }), fc.double({ min: -80, max: 84, noNaN: true }), (dLon, lat) => {
        const [x, y] = converter.inverse([lon0 + dLon, lat]);
        const expected = converter.forward([x, y]);
        expect(metresAcross(inverse!(x, y), expected as [number, number])).toBeLessThan(0.001);
      }),
      { numRuns: 5000 },
    );
  });

  it('Albers: a point beyond the cone or past a pole is no place (as proj4 round trip refuses it)', () => {
    const { inverse } = closedForm('EPSG:5070');
    for (const [x, y] of [
      [0, 1e9],
      [0, -2e7],
      [-1e8, 3e6],
      [Infinity, 0],
      [NaN, 0],
    ]) expect(inverse!(x, y)).toEqual([NaN, NaN]);
  });

  it('Web Mercator (3857) within 1 mm of proj4, and an easting past the antimeridian is no place', () => {
    const { converter, inverse } = closedForm('EPSG:3857');
    expect(inverse).not.toBeNull();
    fc.assert(
      fc.property(fc.double({ min: -180, max: 180, noNaN: true }), fc.double({ min: -85, max: 85, noNaN: true }), (lon, lat) => {
        const [x, y] = converter.inverse([lon, lat]);
        expect(metresAcross(inverse!(x, y), converter.forward([x, y]) as [number, number])).toBeLessThan(0.001);
      }),
      { numRuns: 5000 },
    );
    expect(inverse!(2.1e7, 0)).toEqual([NaN, NaN]);
  });

  it('projections with no closed form here, or on a shifted datum, stay with proj4', () => {
    expect(closedForm('EPSG:32614').inverse).toBeNull(); // UTM
    expect(closedForm('+proj=aea +lat_0=23 +lon_0=-96 +lat_1=29.5 +lat_2=45.5 +ellps=clrk66 +towgs84=-8,160,176 +units=m').inverse).toBeNull();
    expect(closedForm('+proj=aea +lat_0=23 +lon_0=-96 +lat_1=29.5 +lat_2=45.5 +ellps=GRS80 +towgs84=0,0,0 +units=us-ft').inverse).toBeNull();
  });

  it('a .prj of Conus Albers takes the closed form too, and agrees with the EPSG code', () => {
    const wkt =
      'PROJCS["NAD_1983_Albers",GEOGCS["GCS_North_American_1983",DATUM["D_North_American_1983",SPHEROID["GRS_1980",6378137.0,298.257222101]],' +
      'PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Albers"],PARAMETER["False_Easting",0.0],PARAMETER["False_Northing",0.0],' +
      'PARAMETER["Central_Meridian",-96.0],PARAMETER["Standard_Parallel_1",29.5],PARAMETER["Standard_Parallel_2",45.5],PARAMETER["Latitude_Of_Origin",23.0],UNIT["Meter",1.0]]';
    const fromWkt = closedForm(crsFromWkt(wkt).definition);
    const fromCode = closedForm(crsFromEpsg(5070).definition);
    expect(fromWkt.inverse).not.toBeNull();
    expect(metresBetween(fromWkt.inverse!(-300_000, 800_000), fromCode.inverse!(-300_000, 800_000))).toBeLessThan(0.001);
  });
});
