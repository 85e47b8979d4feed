// What the memory budget counts of a structure: every buffer it keeps alive once, whatever views
// of it it holds, and lists of values at what V8 gives them.

import { describe, expect, it } from 'vitest';
import { Utf8Strings } from '../ranking/utf8-strings.js';
import { ByteCount, listBytes } from './sizes.js';

describe('ByteCount', () => {
  it('counts a buffer once however many views of it are held, and a view by the whole buffer it keeps', () => {
    const file = new ArrayBuffer(1_000);
    const a = new Float64Array(file, 0, 10);
    const b = new Int32Array(file, 80, 20);
    expect(new ByteCount().views(a, b, a).total()).toBe(1_000);
    expect(new ByteCount().views(new Uint8Array(16), new Uint8Array(16)).total()).toBe(32);
  });

  it('counts a packed list by its arrays and an array by its values', () => {
    const { bytes, ends } = Utf8Strings.encode(['alpha', 'beta']);
    const packed = new Utf8Strings(bytes, ends);
    expect(new ByteCount().list(packed).total()).toBe(bytes.buffer.byteLength + ends.buffer.byteLength);
    const strings = Array.from({ length: 100 }, (_, i) => `parcel-${String(i).padStart(4, '0')}`);
    // 8 for the slot, 16 for the string's header, 16 for its 11 characters rounded to 8.
    expect(listBytes(strings)).toBe(100 * (8 + 16 + 16));
    expect(new ByteCount().list(strings).bytes(5).total()).toBe(100 * 40 + 5);
  });
});
