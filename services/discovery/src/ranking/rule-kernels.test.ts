import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilePredicate } from '@landscreen/buybox-spec';
import { valueAt } from './columns.js';
import { ruleKernel } from './rule-kernels.js';
import { market, rule } from './test-arbitraries.js';

/** Some rows of the market, ascending, as ranking hands them to a kernel. */
const withRows = market(40).chain((index) =>
  fc.subarray([...Array(index.size).keys()]).map((rows) => ({ index, rows: Uint32Array.from(rows) })),
);

describe('rule kernels', () => {
  it('keep exactly the rows a must rule\'s own test keeps, flagging review ones, also in place', () => {
    fc.assert(
      fc.property(withRows, rule, fc.boolean(), fc.boolean(), ({ index, rows }, { field, op, value }, unknownKeeps, inPlace) => {
        const test = compilePredicate(op, value);
        const column = index.column(field);
        const outcome = (row: number) => test(valueAt(column, row));
        const expected = [...rows].filter((row) => outcome(row) === true || (outcome(row) === undefined && unknownKeeps));

        const output = inPlace ? rows.slice() : new Uint32Array(rows.length);
        const review = new Uint8Array(index.size);
        const kept = ruleKernel(column, { test, op, value }).keep(inPlace ? output : rows, rows.length, output, review, unknownKeeps);

        expect([...output.subarray(0, kept)]).toEqual(expected);
        for (const row of rows) expect(review[row]).toBe(unknownKeeps && outcome(row) === undefined ? 1 : 0);
      }),
      { numRuns: 1000 },
    );
  });

  it('mark exactly the rows a preferred rule\'s own test passes, leaving other bits alone', () => {
    fc.assert(
      fc.property(withRows, rule, fc.integer({ min: 0, max: 15 }), ({ index, rows }, { field, op, value }, bit) => {
        const test = compilePredicate(op, value);
        const column = index.column(field);
        const passed = Uint32Array.from(rows, (_, at) => (at * 2654435761) & ~(1 << bit));
        const before = passed.slice();
        ruleKernel(column, { test, op, value }).mark(rows, rows.length, passed, bit);
        rows.forEach((row, at) => expect(passed[at]).toBe((before[at]! | (test(valueAt(column, row)) === true ? 1 << bit : 0)) >>> 0));
      }),
      { numRuns: 1000 },
    );
  });
});
