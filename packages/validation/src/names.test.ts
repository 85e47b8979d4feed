import { describe, expect, it } from 'vitest';
import { invisibleCharacterIn, normaliseName } from './names.js';

describe('names people type and read', () => {
  it('gives names that look alike one form: NFC, trimmed', () => {
    expect(normaliseName('Cafe\u0301')).toBe('Café');
    expect(normaliseName('Café')).toBe('Café');
    expect(normaliseName('  dc east \u00a0')).toBe('dc east');
  });

  it.each([
    ['dc\u200b', 'U+200B'],
    ['dc\u200d', 'U+200D'],
    ['\u202eevil', 'U+202E'],
    ['tab\there', 'U+0009'],
    ['soft\u00adhyphen', 'U+00AD'],
    ['line\u2028break', 'U+2028'],
    ['\ufeffbom', 'U+FEFF'],
    ['lone \ud800', 'U+D800'],
  ])('refuses %j (%s)', (name, codePoint) => expect(invisibleCharacterIn(name)).toBe(codePoint));

  it.each(['Data center 50ac', 'Café', 'Zürich – Süd', '東京', 'a\u00a0b', '🏭 sites'])('accepts %j', (name) =>
    expect(invisibleCharacterIn(name)).toBeUndefined(),
  );
});
