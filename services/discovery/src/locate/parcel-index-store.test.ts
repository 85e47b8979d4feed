// The stored parcel index (built as an import streams its parcels, encoded, decoded) answers
// exactly what the index built from the parcels' GeoJSON answers: the same map tiles byte for
// byte (the encoded answer against the typed features the gateway used to encode), the same
// located parcel and the same parcel records.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeTile, type TileAddress } from '@landscreen/vector-tiles';
import { encodedParcelTile, PARCEL_LAYER, parcelTileFeatures } from '../tiles/parcel-tile-features.js';
import type { VerdictMap } from '../tiles/verdict-map.js';
import { ParcelIndexBuilder } from './parcel-index-builder.js';
import { decodeParcelIndex, encodeParcelIndex, UnusableParcelIndex } from './parcel-index-blob.js';
import { ParcelIndex, type IndexedParcelInput } from './parcel-index.js';
import { restoreInWorker } from './restore-in-worker.js';

const VINTAGE = '00000000-0000-4000-8000-000000000001';
const [LON, LAT] = [-97.5, 30.5];

type Ring = number[][];

/** A closed ring of `n` points around (cx, cy), radii jittered so it is no plain square. */
const ring = (cx: number, cy: number, rx: number, ry: number, jitter: number[], reverse = false): Ring => {
  const points = jitter.map((j, i) => {
    const a = (2 * Math.PI * i) / jitter.length;
    return [cx + rx * (0.6 + 0.4 * j) * Math.cos(a), cy + ry * (0.6 + 0.4 * j) * Math.sin(a)];
  });
  if (reverse) points.reverse();
  return [...points, points[0]!];
};

const polygonArb = fc.record({
  cx: fc.double({ min: LON - 0.3, max: LON + 0.3, noNaN: true }),
  cy: fc.double({ min: LAT - 0.3, max: LAT + 0.3, noNaN: true }),
  rx: fc.double({ min: 0.00005, max: 0.02, noNaN: true }),
  ry: fc.double({ min: 0.00005, max: 0.02, noNaN: true }),
  jitter: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 3, maxLength: 12 }),
  hole: fc.boolean(),
});

const parcelArb = fc.record({
  parts: fc.array(polygonArb, { minLength: 1, maxLength: 3 }),
  multi: fc.boolean(),
  apn: fc.option(fc.string({ maxLength: 8 }), { nil: null }),
  address: fc.option(fc.string({ maxLength: 12 }), { nil: null }),
  owner_name: fc.option(fc.string({ maxLength: 12 }), { nil: null }),
  zoning: fc.option(fc.constantFrom('industrial', 'agricultural'), { nil: null }),
  acres: fc.option(fc.double({ min: 0, max: 1000, noNaN: true }), { nil: null }),
  verdict: fc.integer({ min: 0, max: 3 }),
  score: fc.double({ min: 0, max: 100, noNaN: true }),
});

type DrawnParcel = typeof parcelArb extends fc.Arbitrary<infer T> ? T : never;

function parcelOf(drawn: DrawnParcel, i: number): IndexedParcelInput {
  const polygons = drawn.parts.map(({ cx, cy, rx, ry, jitter, hole }) => [ring(cx, cy, rx, ry, jitter), ...(hole ? [ring(cx, cy, rx / 4, ry / 4, jitter, true)] : [])]);
  const geometry = drawn.multi ? { type: 'MultiPolygon' as const, coordinates: polygons } : { type: 'Polygon' as const, coordinates: polygons[0]! };
  const [lon, lat] = polygons[0]![0]![0]!;
  return { parcel_key: `k${String(i).padStart(5, '0')}`, geometry, apn: drawn.apn, address: drawn.address, owner_name: drawn.owner_name, zoning: drawn.zoning, acres: drawn.acres, lat: lat!, lon: lon! };
}

/** The index's stored bytes in an ArrayBuffer of their own, as a service reads them from the database. */
function storedBytes(parcels: IndexedParcelInput[]): Uint8Array {
  const builder = new ParcelIndexBuilder(VINTAGE);
  for (const parcel of parcels) builder.add(parcel);
  const bytes = Buffer.concat(encodeParcelIndex(builder.finish()));
  const owned = new Uint8Array(new ArrayBuffer(bytes.length));
  owned.set(bytes);
  return owned;
}

/** Through bytes, restored in this thread (the worker runs the same restoredParts). */
function storedAndRead(parcels: IndexedParcelInput[]): ParcelIndex {
  return ParcelIndex.restore(decodeParcelIndex(storedBytes(parcels), VINTAGE));
}

/** What the gateway wrote from the typed features before tiles came encoded. */
function typedTile(index: ParcelIndex, view: VerdictMap, tile: TileAddress): Uint8Array {
  const features = parcelTileFeatures(index, view, tile).map((feature) => ({
    geometry: { type: feature.geometry!.type as 1 | 2 | 3, paths: feature.geometry!.paths!.map((path) => path.xy as number[]) },
    properties: { parcel_key: feature.parcelKey!, verdict: feature.verdict!, score: feature.score! },
  }));
  return encodeTile([{ name: PARCEL_LAYER, features }]);
}

const tileOf = (lon: number, lat: number, z: number): TileAddress => ({
  z,
  x: Math.floor(((lon + 180) / 360) * 2 ** z),
  y: Math.floor(((1 - Math.asinh(Math.tan((lat * Math.PI) / 180)) / Math.PI) / 2) * 2 ** z),
});

describe('the stored parcel index', () => {
  it('answers the same tiles, located parcels and records as the index built from GeoJSON', () => {
    fc.assert(
      fc.property(
        fc.array(parcelArb, { minLength: 1, maxLength: 60 }),
        fc.array(fc.record({ dx: fc.double({ min: -0.35, max: 0.35, noNaN: true }), dy: fc.double({ min: -0.35, max: 0.35, noNaN: true }), z: fc.integer({ min: 6, max: 17 }) }), { minLength: 1, maxLength: 8 }),
        (drawn, probes) => {
          const parcels = drawn.map(parcelOf);
          const built = ParcelIndex.build(VINTAGE, parcels);
          const stored = storedAndRead(parcels);
          expect(stored.size).toBe(built.size);
          const keysOf = (index: ParcelIndex) => Array.from({ length: index.size }, (_, id) => index.keys.at(id));
          expect(keysOf(stored)).toEqual(keysOf(built));
          expect(stored.keyOrder).toEqual(built.keyOrder);
          const view: VerdictMap = { verdict: Uint8Array.from(drawn, (p) => p.verdict), score: Float64Array.from(drawn, (p) => p.score) };
          for (const { dx, dy, z } of probes) {
            const tile = tileOf(LON + dx, LAT + dy, z);
            expect(Buffer.from(encodedParcelTile(stored, view, tile))).toEqual(Buffer.from(typedTile(built, view, tile)));
            expect(stored.locate(LON + dx, LAT + dy, 500)).toEqual(built.locate(LON + dx, LAT + dy, 500));
          }
          for (let id = 0; id < built.size; id++) expect(stored.parcel(id)).toEqual(built.parcel(id));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('draws the parcels of a tile that holds some (the property is not vacuous)', () => {
    const parcels = [parcelOf({ parts: [{ cx: LON, cy: LAT, rx: 0.001, ry: 0.001, jitter: [1, 0.5, 1, 0.7], hole: true }], multi: false, apn: '1', address: null, owner_name: null, zoning: null, acres: 3, verdict: 3, score: 90 }, 0)];
    const stored = storedAndRead(parcels);
    const tile = encodedParcelTile(stored, { verdict: Uint8Array.of(3), score: Float64Array.of(90) }, tileOf(LON, LAT, 14));
    expect(Buffer.from(tile).includes(Buffer.from('k00000'))).toBe(true);
    expect(stored.locate(LON, LAT + 0.0007, 0)?.id).toBe(0);
  });

  it('restored in a worker thread, answers what the index restored in this thread answers', async () => {
    const drawn = fc.sample(parcelArb, { numRuns: 300, seed: 7 });
    const parcels = drawn.map(parcelOf).reverse();
    const inThread = storedAndRead(parcels);
    // In three parts, as the database holds a large index, each in a buffer of its own.
    const whole = storedBytes(parcels);
    const cuts = [0, Math.floor(whole.length / 3), Math.floor((2 * whole.length) / 3), whole.length];
    const parts = cuts.slice(1).map((end, i) => whole.slice(cuts[i], end));
    const inWorker = await restoreInWorker(parts, VINTAGE);
    // The parts went to the worker: this thread no longer holds them.
    expect(parts.every((part) => part.byteLength === 0)).toBe(true);
    expect(inWorker.size).toBe(parcels.length);
    expect(inWorker.keyOrder).toEqual(inThread.keyOrder);
    expect(inWorker.worldY).toEqual(inThread.worldY);
    const view: VerdictMap = { verdict: Uint8Array.from(drawn, (p) => p.verdict), score: Float64Array.from(drawn, (p) => p.score) };
    let drawnFeatures = 0;
    for (const z of [8, 11, 14]) {
      const tile = tileOf(LON, LAT, z);
      const answer = encodedParcelTile(inWorker, view, tile);
      expect(Buffer.from(answer)).toEqual(Buffer.from(encodedParcelTile(inThread, view, tile)));
      drawnFeatures += answer.byteLength;
    }
    expect(drawnFeatures).toBeGreaterThan(0);
    for (let id = 0; id < parcels.length; id++) expect(inWorker.parcel(id)).toEqual(inThread.parcel(id));
    expect(inWorker.locate(LON, LAT, 2000)).toEqual(inThread.locate(LON, LAT, 2000));
  });

  it('refuses, from the worker too, bytes of another vintage', async () => {
    const bytes = storedBytes([parcelOf({ parts: [{ cx: LON, cy: LAT, rx: 0.001, ry: 0.001, jitter: [1, 1, 1], hole: false }], multi: true, apn: null, address: null, owner_name: null, zoning: null, acres: null, verdict: 1, score: 1 }, 0)]);
    await expect(restoreInWorker([bytes], '00000000-0000-4000-8000-000000000002')).rejects.toBeInstanceOf(UnusableParcelIndex);
  });

  it('refuses bytes of another vintage or format, or cut short', () => {
    const builder = new ParcelIndexBuilder(VINTAGE);
    builder.add(parcelOf({ parts: [{ cx: LON, cy: LAT, rx: 0.001, ry: 0.001, jitter: [1, 1, 1], hole: false }], multi: true, apn: null, address: null, owner_name: null, zoning: null, acres: null, verdict: 1, score: 1 }, 0));
    const bytes = Buffer.concat(encodeParcelIndex(builder.finish()));
    const copy = (b: Buffer) => {
      const out = Buffer.allocUnsafeSlow(b.length);
      b.copy(out);
      return out;
    };
    expect(() => decodeParcelIndex(copy(bytes), '00000000-0000-4000-8000-000000000002')).toThrow(UnusableParcelIndex);
    expect(() => decodeParcelIndex(copy(bytes.subarray(0, bytes.length - 16)), VINTAGE)).toThrow(UnusableParcelIndex);
    const otherFormat = copy(bytes);
    otherFormat.writeUInt32LE(99, 8);
    expect(() => decodeParcelIndex(otherFormat, VINTAGE)).toThrow(UnusableParcelIndex);
  });
});
