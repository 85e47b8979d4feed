import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { catalogv1 } from './index.js';

describe('strings on the wire (Buffer-backed UTF-8)', () => {
  const names = ['', 'plain ascii', 'Zürich – Gießen', 'Δ 東京 ☀️', 'astral 𝔘𝔫𝔦 😀', 'a\u0000b'];

  it('writes the same bytes as TextEncoder and reads every string back unchanged', () => {
    for (const name of names) {
      const bytes = toBinary(catalogv1.PlanSchema, create(catalogv1.PlanSchema, { id: 'free', name }));
      const utf8 = new TextEncoder().encode(name);
      // field 2 (name): tag, length, then the UTF-8 bytes exactly as TextEncoder writes them
      const at = bytes.indexOf(0x12);
      expect(Buffer.from(bytes.subarray(at + 2, at + 2 + utf8.length))).toEqual(Buffer.from(utf8));
      expect(fromBinary(catalogv1.PlanSchema, bytes).name).toBe(name);
    }
  });
});
