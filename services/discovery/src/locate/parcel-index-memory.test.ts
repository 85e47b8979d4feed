// What the parcel index holds and what the memory budget counts of it: repeated record values
// kept once in a dictionary and read back as they were, no null flags where no value is null,
// and a count that is every buffer the index keeps alive (the engine's index and the
// SharedArrayBuffers made for it included), each once.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packStringColumn, stringColumn } from './coded-strings.js';
import { heldBuffers } from './held-buffers.js';
import { packStrings } from './packed-columns.js';
import { ParcelIndex, type IndexedParcelInput } from './parcel-index.js';
import { ParcelIndexBuilder } from './parcel-index-builder.js';
import { restoredParts } from './restored-parcel-index.js';

const VINTAGE = '00000000-0000-4000-8000-000000000005';

const readBack = (values: (string | null)[]) => {
  const column = stringColumn(packStringColumn(values));
  return Array.from({ length: column.length }, (_, i) => column.at(i));
};

describe('record fields of the parcel index', () => {
  it('read back every value as it was, coded or packed', () => {
    const value = fc.oneof(fc.constant(null), fc.string({ maxLength: 6 }), fc.constantFrom('industrial', 'agricultural', 'é✓', ''));
    fc.assert(
      fc.property(fc.array(value, { maxLength: 200 }), (values) => {
        expect(readBack(values)).toEqual(values);
      }),
      { numRuns: 300 },
    );
  });

  it('code a field of few distinct values in the narrowest codes, and pack a field of distinct ones', () => {
    const zoning = Array.from({ length: 1_000 }, (_, i) => (i % 7 === 0 ? null : ['industrial', 'agricultural', 'commercial'][i % 3]!));
    const coded = packStringColumn(zoning);
    expect(coded.form === 'coded' && coded.codes.BYTES_PER_ELEMENT).toBe(1);
    const owners = Array.from({ length: 4_000 }, (_, i) => `Owner ${i % 600} LLC`);
    const wider = packStringColumn(owners);
    expect(wider.form === 'coded' && wider.codes.BYTES_PER_ELEMENT).toBe(2);
    expect(readBack(owners)).toEqual(owners);
    const many = Array.from({ length: 280_000 }, (_, i) => `o${i % 70_000}`);
    const widest = packStringColumn(many);
    expect(widest.form === 'coded' && widest.codes.BYTES_PER_ELEMENT).toBe(4);
    expect(stringColumn(widest).at(279_999)).toBe('o69999');
    const apns = Array.from({ length: 1_000 }, (_, i) => `R${String(i).padStart(10, '0')}`);
    expect(packStringColumn(apns).form).toBe('packed');
    expect(readBack(apns)).toEqual(apns);
  });

  it('keep the prefix every value shares once, and read back values sharing one, whatever their characters', () => {
    const value = fc.oneof(fc.constant(null), fc.string({ unit: 'binary', maxLength: 6 }), fc.string({ unit: 'grapheme', maxLength: 4 }));
    fc.assert(
      fc.property(fc.constantFrom('', 'bench-tx:', 'é', '\u{1F600}', '\u{1F600}\u{1F601}'), fc.array(value, { maxLength: 60 }), (prefix, values) => {
        // Well-formed strings only: a lone surrogate has no UTF-8 form to come back from.
        const prefixed = values.map((v) => (v === null ? null : `${prefix}${v}`)).filter((v) => v === null || Buffer.from(v).toString() === v);
        expect(readBack(prefixed)).toEqual(prefixed);
      }),
      { numRuns: 500 },
    );
    const keys = Array.from({ length: 100 }, (_, i) => `bench-tx:R${i}`);
    const packed = packStrings(keys);
    expect(packed.prefix).toBe('bench-tx:R');
    expect(packed.bytes.byteLength).toBe(keys.join('').length - 100 * 'bench-tx:R'.length);
  });

  it('keep the values\' lengths in the narrowest array that holds them all', () => {
    const short = packStrings(['a', 'bé', null]);
    expect(short.lengths).toEqual(Uint8Array.of(1, 3, 0));
    const long = ['x'.repeat(300), 'y', null, 'z'.repeat(70_000), ...Array.from({ length: 70 }, (_, i) => `v${i}`)];
    expect(packStrings(long.slice(0, 3)).lengths.BYTES_PER_ELEMENT).toBe(2);
    expect(packStrings(long).lengths.BYTES_PER_ELEMENT).toBe(4);
    expect(readBack(long)).toEqual(long);
  });

  it('keep no null flags where no value is null', () => {
    expect(packStrings(['a', 'b', 'c']).nulls.length).toBe(0);
    expect(packStrings(['a', null, 'c']).nulls).toEqual(Uint8Array.of(0, 1, 0));
  });
});

describe('heldBuffers', () => {
  it('finds each buffer an object keeps, through fields, arrays, maps and cycles, shared ones included, once', () => {
    const shared = new SharedArrayBuffer(64);
    const plain = new Float64Array(8);
    const holder: Record<string, unknown> = { a: { b: [null, 1, { c: new Uint32Array(shared) }] }, d: new Map([['k', plain]]), e: plain.subarray(2) };
    holder.self = holder;
    class Private {
      private readonly kept = new Uint8Array(new ArrayBuffer(10));
      size = () => this.kept.length;
    }
    holder.f = new Private();
    const found = heldBuffers(holder);
    expect([...found].map((buffer) => buffer.byteLength).sort((a, b) => a - b)).toEqual([10, 64, 64]);
    expect(found.has(shared)).toBe(true);
    expect(found.has(plain.buffer)).toBe(true);
  });
});

describe('the parcel index in the memory budget', () => {
  const square = (i: number): IndexedParcelInput => {
    const [x, y] = [-97 + (i % 40) * 0.01, 30 + Math.floor(i / 40) * 0.01];
    return {
      parcel_key: `tx:${String(i).padStart(6, '0')}`,
      geometry: { type: 'Polygon', coordinates: [[[x, y], [x + 0.008, y], [x + 0.008, y + 0.008], [x, y + 0.008], [x, y]]] },
      apn: `R${i}`,
      address: `${i} Main St`,
      owner_name: `Owner ${i % 50}`,
      zoning: ['agricultural', 'industrial'][i % 2]!,
      acres: 10 + i / 8,
      lat: y,
      lon: x,
    };
  };

  it('counts every buffer a restored index keeps, the engine tree tiles share and its SharedArrayBuffers once, and nothing it does not hold', () => {
    const size = 2_000;
    const builder = new ParcelIndexBuilder(VINTAGE);
    for (let i = 0; i < size; i++) builder.add(square(i));
    const parts = restoredParts(builder.finish());
    const index = ParcelIndex.fromRestored(parts);
    index.locate(-96.9, 30.1, 100);
    const { shapes, engine, records, keys } = parts;
    const known = new Set<ArrayBufferLike>([engine.tree!, engine.entries.singlePoint.buffer, parts.keyOrder.buffer, parts.singlePart.buffer, parts.worldY.buffer]);
    for (const view of [shapes.shapeKinds, shapes.coordStarts, shapes.coords, shapes.pathStarts, shapes.paths, shapes.polygonStarts, shapes.polygons, shapes.boxes]) known.add(view.buffer);
    for (const view of [engine.buckets!.cellStart, engine.buckets!.cellEntries, records.acres, records.lat, records.lon, keys.bytes, keys.blockStarts, keys.lengths, keys.nulls]) known.add(view.buffer);
    for (const column of [records.apn, records.address, records.owner_name, records.zoning]) {
      const packed = column.form === 'coded' ? column.dictionary : column;
      for (const view of [packed.bytes, packed.blockStarts, packed.lengths, packed.nulls]) known.add(view.buffer);
      if (column.form === 'coded') known.add(column.codes.buffer);
    }
    expect(records.zoning.form).toBe('coded');
    expect(records.owner_name.form).toBe('coded');
    expect(records.apn.form).toBe('packed');
    const knownBytes = [...known].reduce((sum, buffer) => sum + buffer.byteLength, 0);
    // Beyond the parts: the engine's own arrays by parcel (its area cache, polygon flags, search marks).
    expect(index.approximateBytes()).toBeGreaterThan(knownBytes + size * 8);
    expect(index.approximateBytes()).toBeLessThanOrEqual(knownBytes + size * 16);
  });

  it('holds an index built from the parcels\' rows as a restored one holds it', () => {
    const parcels = Array.from({ length: 2_000 }, (_, i) => square(i));
    const builder = new ParcelIndexBuilder(VINTAGE);
    for (const parcel of parcels) builder.add(parcel);
    const restored = ParcelIndex.fromRestored(restoredParts(builder.finish()));
    const built = ParcelIndex.build(VINTAGE, parcels);
    const parts = (index: ParcelIndex) => index.heldParts().map(({ part }) => part);
    expect(parts(built)).toEqual(parts(restored));
    expect(Math.abs(built.approximateBytes() - restored.approximateBytes())).toBeLessThan(restored.approximateBytes() * 0.02);
  });
});
