import { describe, expect, it } from 'vitest';
import { CoercionError, toBoolean, toInteger, toNumber, toText } from './coerce.js';

describe('coercions', () => {
  it('reads numbers from numbers and numeric strings; blank is null', () => {
    const ok: [unknown, number | null][] = [
      [12.5, 12.5],
      ['12.5', 12.5],
      [' -3 ', -3],
      ['.5', 0.5],
      ['1e3', 1000],
      ['1,234,567.89', 1234567.89],
      ['', null],
      ['   ', null],
      [null, null],
      [undefined, null],
    ];
    for (const [value, expected] of ok) expect(toNumber(value), JSON.stringify(value)).toBe(expected);
    for (const bad of ['12 acres', 'NaN', 'Infinity', '1,23', '$5', true, {}, [1], Number.NaN]) {
      expect(() => toNumber(bad), String(bad)).toThrow(CoercionError);
    }
  });

  it('reads integers, refusing fractions', () => {
    expect(toInteger('42')).toBe(42);
    expect(toInteger('42.0')).toBe(42);
    expect(() => toInteger('4.5')).toThrow(/expected an integer, got "4.5"/);
  });

  it('reads booleans from true/false, 1/0, yes/no (and t/f, y/n) in any case', () => {
    for (const v of [true, 1, '1', 'true', 'TRUE', 'Yes', 'y', 't', ' yes ']) expect(toBoolean(v), String(v)).toBe(true);
    for (const v of [false, 0, '0', 'false', 'False', 'NO', 'n', 'f']) expect(toBoolean(v), String(v)).toBe(false);
    expect(toBoolean('')).toBeNull();
    for (const v of ['maybe', 2, '2', {}]) expect(() => toBoolean(v), String(v)).toThrow(/expected a boolean/);
  });

  it('reads text, trimming, and writing out numbers and booleans', () => {
    expect(toText('  AG-1 ')).toBe('AG-1');
    expect(toText(10)).toBe('10');
    expect(toText(false)).toBe('false');
    expect(toText(' ')).toBeNull();
    expect(() => toText({ a: 1 })).toThrow(/expected text, got \{"a":1\}/);
  });
});
