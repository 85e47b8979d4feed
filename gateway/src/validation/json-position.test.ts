import { describe, expect, it } from 'vitest';
import { jsonErrorPosition } from './json-position.js';

describe('jsonErrorPosition (the index Python\'s json module reports)', () => {
  it.each([
    ['{"a": }', 6],
    ['{"a":', 5],
    ['{', 1],
    ['not json', 0],
    ['{"a":1,}', 7],
    ['[1,2', 4],
    ['{"a" 1}', 5],
    ['{"a":1}}', 7],
    ['{"a":"\\x"}', 6],
    ['[01]', 2],
    ['{"a":tru}', 5],
  ])('%s → %i', (text, position) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(jsonErrorPosition(text)).toBe(position);
  });
});

describe('jsonErrorPosition on hostile text', () => {
  it('answers a position for 20,000 unclosed brackets, without recursion', () => {
    expect(jsonErrorPosition('['.repeat(20_000))).toBe(20_000);
    expect(jsonErrorPosition(`${'{"a":'.repeat(20_000)}1${'}'.repeat(19_999)}]`)).toBe(5 * 20_000 + 1 + 19_999);
  });

  it('finds the first error inside nested members', () => {
    expect(jsonErrorPosition('[[1],[2,]]')).toBe(8);
    expect(jsonErrorPosition('{"a":{"b":[1,{"c":}]}}')).toBe(18);
    expect(jsonErrorPosition('{"a":[1,2],"b":{"c":[true,nul]}}')).toBe(26);
  });

  it('finds the error at the end of a megabyte of malformed text', () => {
    const text = `[${'1,'.repeat(500_000)}]`;
    expect(jsonErrorPosition(text)).toBe(text.length - 1);
  });
});
