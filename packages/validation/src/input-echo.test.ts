import { describe, expect, it } from 'vitest';
import { ECHO_LIMIT_BYTES, echoInput, fitsInJson } from './input-echo.js';
import { issue } from './issues.js';

describe('echoInput (the `input` a D1 item echoes)', () => {
  it('echoes every value whose JSON fits the limit exactly as sent', () => {
    const rules = Array.from({ length: 51 }, (_, index) => ({ field: `f${index}`, op: 'gte', value: index }));
    const text = 'x'.repeat(20_001);
    expect(echoInput(rules)).toBe(rules);
    expect(echoInput(text)).toBe(text);
    expect(echoInput(null)).toBe(null);
  });

  it('summarises a list of millions from its head: a few items read, not millions', () => {
    const huge = new Array<number>(8_000_000).fill(0);
    // Counts the items read: echoing must not walk (or serialise) the whole list to size it.
    let reads = 0;
    const counted = new Proxy(huge, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const echoed = echoInput(counted) as unknown[];
    expect(echoed).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '… 7999990 more items']);
    expect(reads).toBeLessThan(10_000);
  });

  it('cuts long strings, wide objects and deep values, whatever the shape', () => {
    const wide = Object.fromEntries(Array.from({ length: 5000 }, (_, index) => [`key${index}`, 'v'.repeat(100)]));
    const echoed = echoInput(wide) as Record<string, unknown>;
    expect(Object.keys(echoed)).toHaveLength(11);
    expect(echoed['…']).toBe('4990 more keys');
    expect(echoInput('y'.repeat(ECHO_LIMIT_BYTES + 1))).toBe(`${'y'.repeat(256)}…`);
    let deep: unknown = 'z'.repeat(ECHO_LIMIT_BYTES);
    for (let level = 0; level < 60; level++) deep = [deep];
    expect(JSON.stringify(echoInput(deep))).toBe('[[[[["… 1 items"]]]]]');
  });

  it('keeps a summary bounded, and a "__proto__" key as data', () => {
    const big = JSON.parse(`{"__proto__":${JSON.stringify(Array.from({ length: 1000 }, () => 'w'.repeat(1000)))}}`);
    const echoed = echoInput(big) as Record<string, unknown>;
    expect(Object.getPrototypeOf(echoed)).toBe(Object.prototype);
    expect(Object.keys(echoed)).toEqual(['__proto__']);
    expect(JSON.stringify(echoed).length).toBeLessThan(16 * 1024);
  });

  it('is what every issue builder echoes', () => {
    const huge = new Array<number>(1_000_000).fill(1);
    expect(issue.dictType(['body'], huge).input).toHaveLength(11);
    expect(issue.missing(['body', 'name'], { name: undefined }).input).toEqual({ name: undefined });
  });
});

describe('fitsInJson', () => {
  it('estimates without writing the text, stopping at the limit', () => {
    expect(fitsInJson({ a: [1, 'bc'] }, 20)).toBe(true);
    expect(fitsInJson({ a: [1, 'bc'] }, 5)).toBe(false);
    expect(fitsInJson(new Array(10_000_000).fill(0), 1024)).toBe(false);
  });
});
