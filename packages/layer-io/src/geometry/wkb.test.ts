import { describe, expect, it } from 'vitest';
import { WkbError, wkbToGeometry } from './wkb.js';

/** WKB written by hand from the OGC layout: byte order, type, then counts and doubles. */
function wkb(littleEndian: boolean, type: number, ...parts: Array<{ count: number } | number>): Uint8Array {
  const size = 5 + parts.reduce<number>((sum, part) => sum + (typeof part === 'number' ? 8 : 4), 0);
  const view = new DataView(new ArrayBuffer(size));
  view.setUint8(0, littleEndian ? 1 : 0);
  view.setUint32(1, type, littleEndian);
  let at = 5;
  for (const part of parts) {
    if (typeof part === 'number') {
      view.setFloat64(at, part, littleEndian);
      at += 8;
    } else {
      view.setUint32(at, part.count, littleEndian);
      at += 4;
    }
  }
  return new Uint8Array(view.buffer);
}

const concat = (...arrays: Uint8Array[]) => Uint8Array.from(arrays.flatMap((array) => [...array]));

describe('wkbToGeometry', () => {
  it('reads points in either byte order, and an ISO PointZ keeping z', () => {
    expect(wkbToGeometry(wkb(true, 1, -97.5, 30.25))).toEqual({ type: 'Point', coordinates: [-97.5, 30.25] });
    expect(wkbToGeometry(wkb(false, 1, -97.5, 30.25))).toEqual({ type: 'Point', coordinates: [-97.5, 30.25] });
    expect(wkbToGeometry(wkb(true, 1001, 1, 2, 3))).toEqual({ type: 'Point', coordinates: [1, 2, 3] });
    // EWKB's Z flag; an M value (ISO 2001) is dropped.
    expect(wkbToGeometry(wkb(true, 0x80000001, 1, 2, 3))).toEqual({ type: 'Point', coordinates: [1, 2, 3] });
    expect(wkbToGeometry(wkb(true, 2001, 1, 2, 9))).toEqual({ type: 'Point', coordinates: [1, 2] });
  });

  it('reads a polygon with a hole and a multipolygon of members with their own headers', () => {
    const ring = (x: number) => [{ count: 4 }, x, 0, x + 1, 0, x + 1, 1, x, 0];
    expect(wkbToGeometry(wkb(true, 3, { count: 2 }, ...ring(0), ...ring(10)))).toEqual({
      type: 'Polygon',
      coordinates: [
        [[0, 0], [1, 0], [1, 1], [0, 0]],
        [[10, 0], [11, 0], [11, 1], [10, 0]],
      ],
    });
    const multi = concat(wkb(true, 6, { count: 2 }), wkb(false, 3, { count: 1 }, ...ring(0)), wkb(true, 3, { count: 1 }, ...ring(5)));
    expect(wkbToGeometry(multi)).toEqual({ type: 'MultiPolygon', coordinates: [[[[0, 0], [1, 0], [1, 1], [0, 0]]], [[[5, 0], [6, 0], [6, 1], [5, 0]]]] });
  });

  it('answers null for empty geometries (an empty point is NaN)', () => {
    expect(wkbToGeometry(wkb(true, 1, NaN, NaN))).toBeNull();
    expect(wkbToGeometry(wkb(true, 3, { count: 0 }))).toBeNull();
  });

  it('refuses curves and collections with the ogr2ogr option that linearises them, and a truncated blob', () => {
    expect(() => wkbToGeometry(wkb(true, 10, { count: 0 }))).toThrow(/a CurvePolygon has no GeoJSON counterpart .*CONVERT_TO_LINEAR/);
    expect(() => wkbToGeometry(wkb(true, 7, { count: 0 }))).toThrow(WkbError);
    expect(() => wkbToGeometry(wkb(true, 2, { count: 5 }, 1, 2))).toThrow(/ends early/);
  });
});
