import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scoreByRow } from './score-by-row.js';

describe('scoreByRow', () => {
  it('answers the score of an eligible row by its number, and nothing for another row', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 200 })), (picked) => {
        const rows = Uint32Array.from(picked.sort((a, b) => a - b));
        const scores = Float64Array.from(rows, (row) => row / 7);
        const score = scoreByRow(rows, scores);
        for (let row = 0; row <= 201; row++) expect(score[row]).toBe(rows.includes(row) ? row / 7 : undefined);
      }),
    );
  });
});
