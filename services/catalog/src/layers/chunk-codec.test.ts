import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Geometry } from '@landscreen/point-engine';
import { isBinaryFeatures } from './binary-features.js';
import { decodeFeatures, encodeFeatures, encodeJsonFeatures } from './chunk-codec.js';

type Stored = [Geometry, Record<string, unknown>];

const ring = (lon: number, lat: number, z?: number) =>
  [
    [lon, lat],
    [lon + 0.01, lat],
    [lon + 0.01, lat + 0.01],
    [lon, lat],
  ].map((p) => (z === undefined ? p : [...p, z]));

const EVERY_KIND: Stored[] = [
  [{ type: 'Point', coordinates: [-97.1234567890123, 30.000000000000004] }, { name: 'a', n: 1 }],
  [{ type: 'Point', coordinates: [-97, 30, 152.5] }, {}],
  [{ type: 'MultiPoint', coordinates: [[-97, 30], [-96.5, 30.5]] }, { flag: true, none: null }],
  [{ type: 'LineString', coordinates: [[-97, 30], [-97.1, 30.1], [-97.2, 30.3]] }, { voltage_kv: 138 }],
  [{ type: 'MultiLineString', coordinates: [[[-97, 30], [-97.1, 30.1]], [[-96, 31], [-96.1, 31.1], [-96.2, 31]]] }, { 'näme': 'ünïcode ✓' }],
  [{ type: 'Polygon', coordinates: [ring(-97, 30), ring(-96.995, 30.002).reverse()] }, { nested: { a: [1, 2] } }],
  [{ type: 'Polygon', coordinates: [ring(-97, 30, 10)] }, {}],
  [{ type: 'MultiPolygon', coordinates: [[ring(-97, 30)], [ring(-95, 29), ring(-94.999, 29.002)]] }, { wetland_type: 'Lake' }],
] as Stored[];

describe('feature chunks', () => {
  it('every geometry kind, 2D and 3D, comes back exactly as stored, from binary', () => {
    const data = encodeFeatures(EVERY_KIND);
    expect(isBinaryFeatures(data)).toBe(true);
    expect(decodeFeatures(data)).toEqual(EVERY_KIND.map(([geometry, properties]) => ({ geometry, properties })));
  });

  it('a chunk stored as JSON (before the binary layout) still reads', () => {
    const data = encodeJsonFeatures(EVERY_KIND);
    expect(isBinaryFeatures(data)).toBe(false);
    expect(decodeFeatures(data)).toEqual(EVERY_KIND.map(([geometry, properties]) => ({ geometry, properties })));
  });

  it('positions of mixed dimensions fall back to JSON, and survive', () => {
    const mixed: Stored[] = [[{ type: 'LineString', coordinates: [[-97, 30], [-97.1, 30.1, 5]] }, {}]] as Stored[];
    const data = encodeFeatures(mixed);
    expect(isBinaryFeatures(data)).toBe(false);
    expect(decodeFeatures(data)[0].geometry).toEqual(mixed[0][0]);
  });

  it('reads from any byte offset (a buffer cut from a pool)', () => {
    const data = encodeFeatures(EVERY_KIND);
    const shifted = new Uint8Array(data.length + 3);
    shifted.set(data, 3);
    expect(decodeFeatures(shifted.subarray(3))).toEqual(decodeFeatures(data));
  });

  it('any double survives the round trip bit for bit (JSON kept them as their shortest decimal)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ noNaN: true, min: -180, max: 180 }), fc.double({ noNaN: true, min: -90, max: 90 })), { minLength: 2, maxLength: 50 }), (points) => {
        const stored: Stored[] = [[{ type: 'LineString', coordinates: points } as Geometry, {}]];
        const back = decodeFeatures(encodeFeatures(stored))[0].geometry.coordinates as number[][];
        expect(back.map((p) => p.map((v) => Object.is(v, -0) ? 0 : v))).toEqual(points.map((p) => p.map((v) => Object.is(v, -0) ? 0 : v)));
      }),
    );
  });
});
