import { describe, expect, it } from 'vitest';
import { WktError } from './errors.js';
import { thrown } from './testing/files.js';
import { parseWkt } from './wkt.js';

describe('parseWkt', () => {
  it('parses every supported type, in any case and spacing', () => {
    expect(parseWkt('POINT (-97.7 30.3)')).toEqual({ type: 'Point', coordinates: [-97.7, 30.3] });
    expect(parseWkt('point(1e-3 -2.5E+1)')).toEqual({ type: 'Point', coordinates: [0.001, -25] });
    expect(parseWkt('MULTIPOINT ((1 2), (3 4))')).toEqual({ type: 'MultiPoint', coordinates: [[1, 2], [3, 4]] });
    expect(parseWkt('MULTIPOINT (1 2, 3 4)')).toEqual({ type: 'MultiPoint', coordinates: [[1, 2], [3, 4]] });
    expect(parseWkt('LINESTRING(0 0,1 1, 2 2)')).toEqual({ type: 'LineString', coordinates: [[0, 0], [1, 1], [2, 2]] });
    expect(parseWkt('MULTILINESTRING((0 0,1 1),(2 2,3 3))')).toEqual({
      type: 'MultiLineString',
      coordinates: [[[0, 0], [1, 1]], [[2, 2], [3, 3]]],
    });
    expect(parseWkt('  POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 2 4, 4 4, 2 2))  ')).toEqual({
      type: 'Polygon',
      coordinates: [
        [[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]],
        [[2, 2], [2, 4], [4, 4], [2, 2]],
      ],
    });
    expect(parseWkt('MultiPolygon (((0 0,1 0,1 1,0 0)),((5 5,6 5,6 6,5 5),(5.1 5.1,5.2 5.1,5.2 5.2,5.1 5.1)))')).toEqual({
      type: 'MultiPolygon',
      coordinates: [
        [[[0, 0], [1, 0], [1, 1], [0, 0]]],
        [
          [[5, 5], [6, 5], [6, 6], [5, 5]],
          [[5.1, 5.1], [5.2, 5.1], [5.2, 5.2], [5.1, 5.1]],
        ],
      ],
    });
  });

  it('reads SRID=4326, Z and M (dropping M), and EMPTY as null', () => {
    expect(parseWkt('SRID=4326;POINT(1 2)')).toEqual({ type: 'Point', coordinates: [1, 2] });
    expect(parseWkt('srid=4326; POINT Z (1 2 3)')).toEqual({ type: 'Point', coordinates: [1, 2, 3] });
    expect(parseWkt('POINT M (1 2 3)')).toEqual({ type: 'Point', coordinates: [1, 2] });
    expect(parseWkt('POINTM(1 2 3)')).toEqual({ type: 'Point', coordinates: [1, 2] });
    expect(parseWkt('POINT ZM (1 2 3 4)')).toEqual({ type: 'Point', coordinates: [1, 2, 3] });
    expect(parseWkt('POINT (1 2 3)')).toEqual({ type: 'Point', coordinates: [1, 2, 3] });
    expect(parseWkt('POLYGON EMPTY')).toBeNull();
    expect(parseWkt('SRID=4326;MULTIPOLYGON EMPTY')).toBeNull();
  });

  it('explains what is wrong and where', () => {
    const cases: [string, RegExp][] = [
      ['', /expected a geometry type/],
      ['CIRCLE(1 2)', /unknown geometry type "CIRCLE"/],
      ['GEOMETRYCOLLECTION(POINT(1 2))', /GEOMETRYCOLLECTION is not supported/],
      ['POINT 1 2', /expected "\(" but found "1 2"/],
      ['POINT(1)', /expected a number but found "\)"/],
      ['POINT(1 north)', /expected a number but found "north\)"/],
      ['POINT(1 2', /expected "\)" but found the end of the text/],
      ['LINESTRING(0 0; 1 1)', /expected "," or "\)" but found ";/],
      ['POLYGON((0 0, 1 0, 1 1, 0 0)) extra', /unexpected "extra" after the geometry/],
      ['POINT(1.2.3 4)', /expected a number/],
      ['POINT Z (1 2)', /a Z position needs 3 numbers, found 2/],
      ['POLYGON(EMPTY)', /EMPTY is only supported for a whole geometry/],
      ['SRID=2277;POINT(3100000 10070000)', /SRID=2277 is not supported: coordinates must be WGS84/],
      ['SRID=x;POINT(1 2)', /invalid SRID "x"/],
    ];
    for (const [text, message] of cases) {
      const error = thrown(() => parseWkt(text));
      expect(error, text).toBeInstanceOf(WktError);
      expect((error as WktError).message, text).toMatch(message);
      expect((error as WktError).message, text).toMatch(/^invalid WKT: .*\(at character \d+\)$/);
    }
    expect((thrown(() => parseWkt('POINT(1 x)')) as WktError).position).toBe(8);
  });
});
