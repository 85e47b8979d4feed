import { describe, expect, it } from 'vitest';
import { formatUsd, parseUsd } from './money.js';

describe('money as decimal strings', () => {
  it('parses up to 4 places exactly and formats with 4', () => {
    expect(parseUsd('25')).toBe(250_000n);
    expect(parseUsd('0.1')).toBe(1_000n);
    expect(parseUsd('12.3456')).toBe(123_456n);
    expect(formatUsd(parseUsd('0.1') + parseUsd('0.2'))).toBe('0.3000'); // not 0.30000000000000004
    expect(formatUsd(-1n)).toBe('-0.0001');
  });

  it('refuses what is not such a decimal', () => {
    for (const bad of ['1.23456', '-1', '1e3', '', 'abc', '1.']) expect(() => parseUsd(bad)).toThrow();
  });
});
