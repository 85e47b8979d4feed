import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './cursor.js';
import { pageAfter } from './page.js';
import { rank, scoreOf, type RankSpec } from './rank.js';
import { VintageIndexBuilder } from './vintage-index.js';

const SECRET = Buffer.from('test-secret');

const parcel = fc.record({
  acres: fc.option(fc.integer({ min: 0, max: 300 }), { nil: null }),
  flood: fc.option(fc.boolean(), { nil: null }),
  zoning: fc.option(fc.constantFrom('industrial', 'agricultural', 'residential'), { nil: null }),
});

const spec: RankSpec = {
  must: [
    { field: 'acres', policy: 'exclude', test: (value) => (value === null ? undefined : (value as number) >= 20) },
    { field: 'flood', policy: 'review', test: (value) => (value === null ? undefined : value === false) },
  ],
  preferred: [
    { field: 'zoning', weight: 3, test: (value) => (value === null ? undefined : value === 'industrial') },
    { field: 'acres', weight: 1, test: (value) => (value === null ? undefined : (value as number) >= 100) },
  ],
  preferenceWeightTotal: 4,
  cutoffs: { pursue: 70, monitor: 40 },
};

describe('ranking and paging (D14, D15)', () => {
  it('paging through any market yields every eligible parcel exactly once, in score then key order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 0, maxLength: 60 }),
        fc.array(parcel, { minLength: 60, maxLength: 60 }),
        fc.integer({ min: 1, max: 7 }),
        // Heads shorter than a page, than the market, or holding all of it.
        fc.integer({ min: 0, max: 70 }),
        (keys, facts, limit, headSize) => {
          const builder = new VintageIndexBuilder('v1');
          keys.forEach((key, row) => builder.add(key, facts[row]!));
          const index = builder.build();
          const ranking = rank(index, spec);

          // The same answer, computed the obvious way.
          const expected = keys
            .map((key, row) => ({ key, row, facts: facts[row]! }))
            .filter(({ facts: f }) => f.acres !== null && f.acres >= 20 && f.flood !== true)
            .map(({ key, row, facts: f }) => ({
              key,
              row,
              score: scoreOf((f.zoning === 'industrial' ? 3 : 0) + (f.acres! >= 100 ? 1 : 0), 4),
            }))
            .sort((a, b) => b.score - a.score || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

          const seen: string[] = [];
          let cursor: string | undefined;
          for (let guard = 0; guard < 100; guard++) {
            const position = cursor ? decodeCursor(SECRET, 'q', cursor) : undefined;
            const after = position && { score: position.score, keyRank: index.rankOfKey(position.parcelKey) };
            const page = pageAfter(index, ranking, limit, after, headSize);
            expect(page.rows.length).toBeLessThanOrEqual(limit);
            seen.push(...page.rows.map((row) => index.keys.at(row)!));
            if (page.remaining === 0) break;
            const last = page.rows.at(-1)!;
            cursor = encodeCursor(SECRET, 'q', { score: page.scores.at(-1)!, parcelKey: index.keys.at(last)! });
          }
          expect(seen).toEqual(expected.map((item) => item.key));
          expect(ranking.eligibleTotal).toBe(expected.length);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuses tampered cursors and cursors of another query', () => {
    const cursor = encodeCursor(SECRET, 'query-a', { score: 75, parcelKey: 'p-1' });
    expect(decodeCursor(SECRET, 'query-a', cursor)).toEqual({ score: 75, parcelKey: 'p-1' });
    expect(decodeCursor(SECRET, 'query-b', cursor)).toBeUndefined();
    const [payload, signature] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify({ q: 'query-a', s: 100, k: 'p-1' })).toString('base64url');
    expect(decodeCursor(SECRET, 'query-a', `${forged}.${signature}`)).toBeUndefined();
    expect(decodeCursor(SECRET, 'query-a', `${payload}.AAAA`)).toBeUndefined();
    expect(decodeCursor(SECRET, 'query-a', 'garbage')).toBeUndefined();
  });

  it('scores with 4 decimals, 100 without preferences, and caps review at MONITOR', () => {
    expect(scoreOf(1, 3)).toBe(33.3333);
    expect(scoreOf(2, 3)).toBe(66.6667);
    expect(scoreOf(0, 0)).toBe(100);
  });
});
