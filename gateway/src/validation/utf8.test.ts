import { isUtf8 } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8 } from './utf8.js';

describe('firstInvalidUtf8 (where a body stops being UTF-8)', () => {
  it.each([
    ['caf\u00e9 ☕ 🏭', [], -1],
    ['caf', [0xe9], 3],
    ['overlong', [0xc0, 0xaf], 8],
    ['surrogate', [0xed, 0xa0, 0x80], 9],
    ['above U+10FFFF', [0xf4, 0x90, 0x80, 0x80], 14],
    ['truncated', [0xe2, 0x82], 9],
    ['stray continuation', [0x80], 18],
  ])('%s + %j → %i, as Buffer judges it', (text, tail, offset) => {
    const bytes = Buffer.concat([Buffer.from(text), Buffer.from(tail)]);
    expect(firstInvalidUtf8(bytes)).toBe(offset);
    expect(isUtf8(bytes)).toBe(offset === -1);
  });
});
