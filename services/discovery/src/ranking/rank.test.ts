import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilePredicate } from '@landscreen/buybox-spec';
import { ruleStatus } from './rank.js';

describe('ruleStatus', () => {
  it('decides numeric rules on number columns exactly as the rule\'s own test does', () => {
    const number = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double({ min: -1e6, max: 1e6, noNaN: true }));
    const rule = fc.oneof(
      fc.record({ op: fc.constantFrom('lt', 'lte', 'gt', 'gte', 'eq', 'ne'), value: number }),
      fc.tuple(number, number).map(([a, b]) => ({ op: 'between', value: [Math.min(a, b), Math.max(a, b)] })),
    );
    fc.assert(
      fc.property(fc.array(fc.option(number, { nil: null }), { minLength: 1, maxLength: 50 }), rule, (facts, { op, value }) => {
        const values = Float64Array.from(facts, (fact) => (fact === null ? Number.NaN : fact));
        const test = compilePredicate(op, value);
        const fast = ruleStatus({ kind: 'number', values }, values.length, test, { op, value });
        const generic = ruleStatus({ kind: 'mixed', values: facts }, values.length, test);
        expect([...fast]).toEqual([...generic]);
      }),
      { numRuns: 300 },
    );
  });
});
