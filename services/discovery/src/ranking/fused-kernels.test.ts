import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilePredicate } from '@landscreen/buybox-spec';
import { keepAll, markAll } from './fused-kernels.js';
import { ruleKernel } from './rule-kernels.js';
import { market, rule } from './test-arbitraries.js';

/** Some rows of the market, ascending, as ranking hands them over. */
const withRows = market(40).chain((index) =>
  fc.subarray([...Array(index.size).keys()]).map((rows) => ({ index, rows: Uint32Array.from(rows) })),
);

describe('markAll', () => {
  it('sets exactly the bits the rules\' own kernels set one by one, inlined or not', () => {
    fc.assert(
      fc.property(withRows, fc.array(rule, { minLength: 0, maxLength: 16 }), ({ index, rows }, rules) => {
        const kernels = rules.map(({ field, op, value }) => ruleKernel(index.column(field), { test: compilePredicate(op, value), op, value }));
        const expected = new Uint32Array(rows.length);
        kernels.forEach((kernel, bit) => kernel.mark(rows, rows.length, expected, bit));
        // Whatever the buffer held before (the scratch buffers are reused between rankings).
        const passed = Uint32Array.from(rows, (_, at) => at * 2654435761);
        markAll(kernels, rows, rows.length, passed);
        expect([...passed]).toEqual([...expected]);
      }),
      { numRuns: 1000 },
    );
  });

  it('leaves rows past `count` alone', () => {
    const rows = Uint32Array.of(0, 1, 2, 3);
    const passed = Uint32Array.of(7, 7, 7, 7);
    markAll([], rows, 2, passed);
    expect([...passed]).toEqual([0, 0, 7, 7]);
  });
});

describe('keepAll', () => {
  it('keeps and flags exactly what the rules\' own kernels keep and flag one after another', () => {
    fc.assert(
      fc.property(withRows, fc.array(fc.record({ rule, unknownKeeps: fc.boolean() }), { minLength: 0, maxLength: 8 }), fc.boolean(), ({ index, rows }, rules, inPlace) => {
        const kernels = rules.map(({ rule: { field, op, value }, unknownKeeps }) => ({
          kernel: ruleKernel(index.column(field), { test: compilePredicate(op, value), op, value }),
          unknownKeeps,
        }));
        const expectedRows = rows.slice();
        const expectedReview = new Uint8Array(index.size);
        let expectedCount = rows.length;
        for (const { kernel, unknownKeeps } of kernels) expectedCount = kernel.keep(expectedRows, expectedCount, expectedRows, expectedReview, unknownKeeps);

        const output = inPlace ? rows.slice() : new Uint32Array(rows.length);
        const review = new Uint8Array(index.size);
        const count = keepAll(kernels, inPlace ? output : rows, rows.length, output, review);

        const kept = [...expectedRows.subarray(0, expectedCount)];
        expect([...output.subarray(0, count)]).toEqual(kept);
        // Only the flags of rows kept are ever read.
        expect(kept.map((row) => review[row])).toEqual(kept.map((row) => expectedReview[row]));
      }),
      { numRuns: 1000 },
    );
  });
});
