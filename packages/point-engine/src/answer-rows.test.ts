import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EngineAnswer, NULL_REASONS, type FieldValue } from './index.js';

const FIELDS = ['a', 'b', 'c'];
/** A value as the engine packs it: kind 0 null, 1 number, 2 false, 3 true, 4 string id. */
const cell = fc.oneof(
  fc.record({ kind: fc.constant(0), number: fc.constant(0), reason: fc.integer({ min: 0, max: NULL_REASONS.length }) }),
  fc.record({ kind: fc.constant(1), number: fc.double(), reason: fc.constant(0) }),
  fc.record({ kind: fc.constantFrom(2, 3), number: fc.constant(0), reason: fc.constant(0) }),
  fc.record({ kind: fc.constant(4), number: fc.integer({ min: 0, max: 2 }), reason: fc.constant(0) }),
);

describe('EngineAnswer.readRow', () => {
  it('hands each location its values in field order, by kind, with the reason of each null, as value() and reason() read them', () => {
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: FIELDS.length, maxLength: FIELDS.length }), { minLength: 1, maxLength: 20 }), (rows) => {
        const cells = rows.flat();
        const answer = new EngineAnswer(
          FIELDS,
          rows.length,
          Uint8Array.from(cells.map((c) => c.kind)),
          Float64Array.from(cells.map((c) => c.number)),
          ['x', 'y', 'z'],
          Uint8Array.from(cells.map((c) => c.reason)),
          new Uint32Array(cells.length),
          [],
        );
        rows.forEach((_, n) => {
          const read: [number, FieldValue, string | null][] = [];
          answer.readRow(n, {
            number: (f, value) => read.push([f, value, null]),
            string: (f, value) => read.push([f, value, null]),
            bool: (f, value) => read.push([f, value, null]),
            null: (f, reason) => read.push([f, null, reason]),
          });
          expect(read).toEqual(FIELDS.map((_, f) => [f, answer.value(n, f), answer.reason(n, f)]));
        });
      }),
    );
  });
});
