import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilePredicate } from '@landscreen/buybox-spec';
import { nextDown, nextUp, numericInterval } from './numeric-interval.js';

const edges = [0, -0, Number.MIN_VALUE, -Number.MIN_VALUE, 1, -1, 0.1, 1e-300, -1e300, Number.MAX_VALUE, -Number.MAX_VALUE];
const finite = fc.oneof(fc.constantFrom(...edges), fc.integer({ min: -50, max: 50 }), fc.double({ noNaN: true, noDefaultInfinity: true }));
const fact = fc.oneof(finite, fc.constantFrom(Infinity, -Infinity));

describe('numericInterval', () => {
  it('steps to the adjacent double, with nothing in between', () => {
    fc.assert(
      fc.property(finite, (value) => {
        expect(nextDown(value)).toBeLessThan(value);
        expect(nextUp(value)).toBeGreaterThan(value);
        // == rather than Object.is: stepping back to zero may land on −0.
        expect(nextUp(nextDown(value)) === value).toBe(true);
        expect(nextDown(nextUp(value)) === value).toBe(true);
      }),
    );
    expect(nextUp(Number.MAX_VALUE)).toBe(Infinity);
    expect(nextDown(1)).toBe(1 - Number.EPSILON / 2);
  });

  it('passes exactly the numbers the rule\'s own test passes', () => {
    const rule = fc.oneof(
      fc.record({ op: fc.constantFrom('lt', 'lte', 'gt', 'gte', 'eq'), value: finite as fc.Arbitrary<unknown> }),
      fc.tuple(finite, finite).map(([a, b]) => ({ op: 'between', value: [Math.min(a, b), Math.max(a, b)] as unknown })),
    );
    fc.assert(
      fc.property(rule, fc.array(fact, { minLength: 1, maxLength: 20 }), ({ op, value }, facts) => {
        const interval = numericInterval(op, value)!;
        const test = compilePredicate(op, value);
        for (const x of [...facts, ...(typeof value === 'number' ? [value, nextUp(value), nextDown(value)] : [])]) {
          expect(x >= interval.low && x <= interval.high).toBe(test(x));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('leaves non-numeric rules and ne to the rule\'s test', () => {
    expect(numericInterval('ne', 3)).toBeUndefined();
    expect(numericInterval('lt', 'b')).toBeUndefined();
    expect(numericInterval('between', ['a', 'c'])).toBeUndefined();
    expect(numericInterval('in', [1, 2])).toBeUndefined();
    expect(numericInterval('exists', true)).toBeUndefined();
  });
});
