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
