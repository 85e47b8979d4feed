import bidiModule from 'bidi-js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { visualRuns } from './bidi.js';

const bidi = (bidiModule as unknown as typeof bidiModule.default)();
const RTL_SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}]/u;
const NO_SCRIPT = /[\p{Script=Common}\p{Script=Inherited}\p{Script=Unknown}]/u;

/** What fontkit draws of a run it is handed (its own rule): reversed when its first character with a script is of a right-to-left one. */
function drawn(run: string): string {
  const first = [...run].find((char) => !NO_SCRIPT.test(char));
  return first !== undefined && RTL_SCRIPT.test(first) ? [...run].reverse().join('') : run;
}

/** The line in display order by bidi-js's own reordering (UAX #9 L1, L2) and mirroring (L4). */
function displayOrder(line: string): string {
  const levels = bidi.getEmbeddingLevels(line);
  const mirrored = bidi.getMirroredCharactersMap(line, levels.levels);
  const chars = [...line].map((char, i) => mirrored.get(i) ?? char);
  for (const [start, end] of bidi.getReorderSegments(line, levels)) chars.splice(start, end - start + 1, ...chars.slice(start, end + 1).reverse());
  return chars.join('');
}

describe('right-to-left lines (visualRuns)', () => {
  it('hands a name in Arabic or Hebrew to fontkit whole and in stored order, which it draws in display order', () => {
    expect(visualRuns('محمد القاهرة')).toEqual(['محمد القاهرة']);
    expect(visualRuns('דוד כהן')).toEqual(['דוד כהן']);
    expect(visualRuns('Ivan Petrov')).toBeNull();
  });

  it('orders runs of both directions as the bidi algorithm displays them: numbers, brackets and Latin within right-to-left text', () => {
    // A right-to-left paragraph: the number keeps its order, the words run right to left, the brackets mirror.
    expect(visualRuns('شركة النور 12 (مصر)')).toEqual([' )مصر(', '12', 'شركة النور ']);
    expect(visualRuns('Owner: דוד כהן Ltd')).toEqual(['Owner: ', 'דוד כהן', ' Ltd']);
    expect(visualRuns('הרצל 12, תל אביב')!.map(drawn).join('')).toBe(displayOrder('הרצל 12, תל אביב'));
  });

  it('draws any line of Latin, Hebrew, Arabic, digits (Arabic-Indic too), spaces and punctuation in the order bidi-js displays it', () => {
    const char = fc.constantFrom(...'abcXYZ', ...'אבגדה', ...'ابتثج', ...'0123', ...'٠١٢', ' ', ' ', '(', ')', '[', ']', '-', ',', '.', ':', '!', '%', '+', '/');
    fc.assert(
      fc.property(fc.array(char, { minLength: 1, maxLength: 40 }).map((chars) => chars.join('')), (line) => {
        const runs = visualRuns(line);
        if (runs === null) {
          expect(/[\u0590-\u08ff]/.test(line)).toBe(false);
          return;
        }
        expect(runs.join('').length).toBe(line.length);
        expect(runs.map(drawn).join('')).toBe(displayOrder(line));
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 2_000) },
    );
  });
});
