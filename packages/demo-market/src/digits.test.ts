import { describe, expect, it } from 'vitest';
import { FOUR_DIGITS, integerText } from './digits.js';
import { Random } from './random.js';

describe('integerText', () => {
  it('writes integers as String does', () => {
    const random = new Random(1);
    const samples = [0, 7, 9999, 10_000, 10_001, 99_999_999, 100_000_000, 123_456_789];
    for (let i = 0; i < 1000; i++) samples.push(random.int(0, 1_000_000));
    for (const n of samples) expect(integerText(n)).toBe(String(n));
    expect(FOUR_DIGITS[42]).toBe('0042');
  });
});
