import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGrade } from '@landscreen/buybox-spec';
import { valueAt } from './columns.js';
import { addGraded } from './graded-score.js';
import { gradedRule, market } from './test-arbitraries.js';

/** Some rows of the market, ascending, as ranking hands them over. */
const withRows = market(40).chain((index) => fc.subarray([...Array(index.size).keys()]).map((rows) => ({ index, rows: Uint32Array.from(rows) })));

describe('addGraded (D41)', () => {
  it('adds to each row exactly what the rule\'s own contribution gives its fact, on every kind of column', () => {
    fc.assert(
      fc.property(withRows, gradedRule, fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 40, maxLength: 40 }), ({ index, rows }, rule, start) => {
        const graded = compileGrade(rule.value, rule.grade, rule.weight);
        const column = index.column(rule.field);
        // A ranking's sums start at +0 and never become -0: so do these.
        const sums = Float64Array.from(rows, (_, at) => start[at]! || 0);
        const before = sums.slice();
        addGraded(column, { ...rule, graded }, rows, rows.length, sums);
        // The evaluator's order: the sum so far, plus this rule's contribution (0 when unknown).
        rows.forEach((row, at) => expect(Object.is(sums[at], before[at]! + (graded(valueAt(column, row)) ?? 0))).toBe(true));
      }),
      { numRuns: 1000 },
    );
  });
});
