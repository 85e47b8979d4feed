import { describe, expect, it } from 'vitest';
import { ACCEPTED_OPS, MAX_LIST_VALUES, compilePredicate, normaliseOp, valueShapeError } from './ops.js';
import { OPS, type Op } from './types.js';

describe('normaliseOp', () => {
  it.each([
    ['=', 'eq'],
    ['==', 'eq'],
    ['!=', 'ne'],
    ['<', 'lt'],
    ['<=', 'lte'],
    ['>', 'gt'],
    ['>=', 'gte'],
  ])('alias %s → %s', (alias, op) => expect(normaliseOp(alias)).toBe(op));

  it('accepts every canonical op, in any case and with stray spaces', () => {
    for (const op of OPS) {
      expect(normaliseOp(op)).toBe(op);
      expect(normaliseOp(` ${op.toUpperCase()} `)).toBe(op);
    }
    expect(normaliseOp(' >= ')).toBe('gte');
    expect(normaliseOp('Not_In')).toBe('not_in');
  });

  it.each(['', 'like', '=>', '<>', 'not in', 'equals', 'toString', '__proto__'])('rejects %j', (op) => {
    expect(normaliseOp(op)).toBeNull();
  });

  it('lists canonical ops then aliases as the accepted spellings', () => {
    expect(ACCEPTED_OPS).toEqual([...OPS, '=', '==', '!=', '<', '<=', '>', '>=']);
  });
});

describe('valueShapeError', () => {
  const ok: [Op, unknown][] = [
    ['eq', 'industrial'],
    ['eq', 5],
    ['eq', false],
    ['eq', null],
    ['ne', 'x'],
    ['contains', 'smith'],
    ['contains', 3],
    ['lt', 5],
    ['lte', '2020-01-01'],
    ['gt', -1.5],
    ['gte', 0],
    ['exists', true],
    ['exists', false],
    ['in', ['a', 1, true, null]],
    ['not_in', ['x']],
    ['between', [50, 200]],
    ['between', [5, 5]],
    ['between', ['A', 'c']],
  ];
  it.each(ok)('%s accepts %j', (op, value) => expect(valueShapeError(op, value)).toBeNull());

  const bad: [Op, unknown, RegExp][] = [
    ['eq', [1], /eq expects a scalar/],
    ['eq', { a: 1 }, /eq expects a scalar/],
    ['ne', Number.NaN, /ne expects a scalar/],
    ['contains', ['a'], /contains expects a scalar/],
    ['lt', true, /lt expects a number or a string/],
    ['lte', null, /lte expects a number or a string/],
    ['gt', [1], /gt expects a number or a string/],
    ['gte', Number.POSITIVE_INFINITY, /gte expects a number or a string/],
    ['exists', 'true', /exists expects a boolean/],
    ['exists', 1, /exists expects a boolean/],
    ['in', [], /in expects a non-empty list/],
    ['in', 'a', /in expects a non-empty list/],
    ['in', [[1]], /in expects a non-empty list of scalars/],
    ['not_in', [{}], /not_in expects a non-empty list/],
    ['between', [1], /between expects a list \[lo, hi\]/],
    ['between', [1, 2, 3], /between expects/],
    ['between', 5, /between expects/],
    ['between', [1, '2'], /two numbers or two strings/],
    ['between', [true, false], /between expects/],
    ['between', [null, 5], /between expects/],
    ['between', [200, 50], /lo > hi/],
    ['between', ['b', 'A'], /lo > hi/],
  ];
  it.each(bad)('%s rejects %j', (op, value, message) => expect(valueShapeError(op, value)).toMatch(message));

  it('bounds in lists', () => {
    const long = Array.from({ length: MAX_LIST_VALUES + 1 }, (_, i) => i);
    expect(valueShapeError('in', long)).toMatch(/at most 1000 values/);
    expect(valueShapeError('in', long.slice(1))).toBeNull();
  });
});

describe('compilePredicate', () => {
  const test = (op: string, value: unknown, fact: unknown) => compilePredicate(op, value)(fact);

  it('answers unknown on null, undefined and NaN facts for every op but exists', () => {
    for (const [op, value] of [
      ['eq', 1],
      ['ne', 1],
      ['lt', 1],
      ['lte', 1],
      ['gt', 1],
      ['gte', 1],
      ['in', [1]],
      ['not_in', [1]],
      ['between', [1, 2]],
      ['contains', 'a'],
      ['eq', null],
      ['ne', null],
    ] as const) {
      expect(test(op, value, null)).toBeUndefined();
      expect(test(op, value, undefined)).toBeUndefined();
      expect(test(op, value, Number.NaN)).toBeUndefined();
    }
  });

  it('exists is never unknown', () => {
    expect(test('exists', true, 0)).toBe(true);
    expect(test('exists', true, '')).toBe(true);
    expect(test('exists', true, false)).toBe(true);
    expect(test('exists', true, null)).toBe(false);
    expect(test('exists', true, undefined)).toBe(false);
    expect(test('exists', false, null)).toBe(true);
    expect(test('exists', false, 'x')).toBe(false);
  });

  it('compares numbers numerically, numeric string facts included', () => {
    expect(test('gte', 50, 50)).toBe(true);
    expect(test('gte', 50, 49.999)).toBe(false);
    expect(test('gt', 50, 50)).toBe(false);
    expect(test('lt', 3000, 2999)).toBe(true);
    expect(test('lte', 3000, 3000)).toBe(true);
    expect(test('gte', 50, '120')).toBe(true);
    expect(test('gte', 50, ' 9.5 ')).toBe(false);
    expect(test('lt', 10, '9')).toBe(true); // numerically, not "9" > "10" as text
    expect(test('eq', 5, '5.0')).toBe(true);
    expect(test('eq', 5, 5)).toBe(true);
    expect(test('ne', 5, 6)).toBe(true);
  });

  it('a fact of the wrong type for a numeric comparison fails (not unknown)', () => {
    for (const fact of ['many', '', true, [60], { v: 60 }, '0x40']) {
      expect(test('gte', 50, fact)).toBe(false);
      expect(test('lt', 50, fact)).toBe(false);
      expect(test('between', [1, 100], fact)).toBe(false);
    }
  });

  it('a numeric rule string compares numerically with a number fact', () => {
    expect(test('gte', '50', 60)).toBe(true);
    expect(test('eq', '5', 5)).toBe(true);
    expect(test('in', ['5'], 5)).toBe(true);
    expect(test('gte', 'abc', 60)).toBe(false);
  });

  it('compares strings case-insensitively', () => {
    expect(test('eq', 'industrial', 'Industrial')).toBe(true);
    expect(test('eq', 'INDUSTRIAL', 'industrial')).toBe(true);
    expect(test('ne', 'industrial', 'INDUSTRIAL')).toBe(false);
    expect(test('ne', 'industrial', 'commercial')).toBe(true);
    expect(test('in', ['Industrial', 'Commercial'], 'commercial')).toBe(true);
    expect(test('in', ['industrial'], 'residential')).toBe(false);
    expect(test('not_in', ['residential'], 'RESIDENTIAL')).toBe(false);
    expect(test('not_in', ['residential'], 'industrial')).toBe(true);
    expect(test('gte', 'c', 'D')).toBe(true);
    expect(test('between', ['B', 'd'], 'c')).toBe(true);
    expect(test('lt', '2020-01-01', '2019-12-31')).toBe(true);
  });

  it('compares booleans strictly', () => {
    expect(test('eq', false, false)).toBe(true);
    expect(test('eq', false, true)).toBe(false);
    expect(test('eq', false, 0)).toBe(false);
    expect(test('eq', false, 'false')).toBe(false);
    expect(test('ne', false, true)).toBe(true);
    expect(test('in', [true], true)).toBe(true);
    expect(test('in', [true], 1)).toBe(false);
    expect(test('not_in', [false], true)).toBe(true);
  });

  it('eq/ne on facts of another type: not equal', () => {
    expect(test('eq', 'industrial', 5)).toBe(false);
    expect(test('ne', 'industrial', 5)).toBe(true);
    expect(test('eq', 5, true)).toBe(false);
    expect(test('eq', null, 'x')).toBe(false);
    expect(test('ne', null, 'x')).toBe(true);
  });

  it('between is inclusive at both ends', () => {
    const between = compilePredicate('between', [50, 200]);
    expect([49, 50, 120, 200, 201].map(between)).toEqual([false, true, true, true, false]);
  });

  it('contains: substring on strings, membership on arrays', () => {
    expect(test('contains', 'smith', 'John SMITH Farms')).toBe(true);
    expect(test('contains', 'jones', 'John Smith')).toBe(false);
    expect(test('contains', 'Ozone', ['ozone', 'PM2.5'])).toBe(true);
    expect(test('contains', 'lead', ['ozone'])).toBe(false);
    expect(test('contains', 5, [1, '5'])).toBe(true);
    expect(test('contains', 5, 'lot 15')).toBe(true);
    expect(test('contains', true, [false, true])).toBe(true);
    expect(test('contains', true, 'true')).toBe(false);
    expect(test('contains', null, [1, null])).toBe(true);
    expect(test('contains', 'a', 5)).toBe(false);
  });

  it('accepts aliases and rejects bad rules with a TypeError', () => {
    expect(compilePredicate('>=', 5)(6)).toBe(true);
    expect(() => compilePredicate('like', 5)).toThrow(TypeError);
    expect(() => compilePredicate('between', [2, 1])).toThrow(/lo > hi/);
  });
});
