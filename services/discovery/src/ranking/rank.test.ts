import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSpec, type CanonicalSpec } from '@landscreen/buybox-spec';
import { valueAt } from './columns.js';
import { pageAfter } from './page.js';
import { MAX_RULES_BY_SET } from './preference-score.js';
import { rank, rankSpecOf } from './rank.js';
import { anyPreferredRule, canonicalSpec, gradedRule, market } from './test-arbitraries.js';
import type { VintageIndex } from './vintage-index.js';

const spec = canonicalSpec;

/** Ranks the market and checks it against the row-wise evaluator, which the evidence of a result uses. */
function checkAgainstEvaluator(index: VintageIndex, canonical: CanonicalSpec, limit: number): void {
  const compiled = compileSpec(canonical);
  const ranking = rank(index, rankSpecOf(compiled));
  const evaluations = Array.from({ length: index.size }, (_, row) => compiled.evaluate((field) => valueAt(index.column(field), row)));
  const eligible = evaluations.flatMap((evaluation, row) => (evaluation.eligible ? [row] : []));

  expect([...ranking.rows]).toEqual(eligible);
  expect(ranking.eligibleTotal).toBe(eligible.length);
  ranking.rows.forEach((row, at) => expect(Object.is(ranking.scores[at], evaluations[row]!.score)).toBe(true));
  const byVerdict = { PURSUE: 0, MONITOR: 0, HOLD: 0 };
  for (const row of eligible) byVerdict[evaluations[row]!.verdict]++;
  expect(ranking.byVerdict).toEqual(byVerdict);

  // Paging yields every eligible parcel once, by score desc then parcel_key by code unit (D15).
  const key = (row: number) => index.keys.at(row)!;
  const expected = [...eligible].sort((a, b) => evaluations[b]!.score - evaluations[a]!.score || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const seen: number[] = [];
  let after;
  for (let pages = 0; ; pages++) {
    // Every page but the last holds at least one row: more pages than rows is a cursor that never moves.
    expect(pages).toBeLessThanOrEqual(index.size);
    const page = pageAfter(index, ranking, limit, after);
    expect(page.scores).toEqual(page.rows.map((row) => evaluations[row]!.score));
    seen.push(...page.rows);
    if (page.remaining === 0) break;
    const last = page.rows.at(-1)!;
    after = { score: page.scores.at(-1)!, keyRank: index.rankOfKey(key(last)) };
  }
  expect(seen).toEqual(expected);
}

describe('rank (D14, D15)', () => {
  it('agrees with the row-wise evaluator on eligibility, scores, verdicts and order', () => {
    fc.assert(
      fc.property(market(60), spec({ minLength: 0, maxLength: 6 }), fc.integer({ min: 1, max: 9 }), checkAgainstEvaluator),
      { numRuns: 400 },
    );
  });

  it(`agrees with it with more than ${MAX_RULES_BY_SET} preferred rules (weights summed per row)`, () => {
    fc.assert(
      fc.property(market(40), spec({ minLength: MAX_RULES_BY_SET + 1, maxLength: MAX_RULES_BY_SET + 4 }), fc.integer({ min: 1, max: 9 }), checkAgainstEvaluator),
      { numRuns: 60 },
    );
  });

  it('agrees with it when preferred rules are graded (D41: a share of the weight per row)', () => {
    fc.assert(
      fc.property(market(60), spec({ minLength: 1, maxLength: 6 }, anyPreferredRule), fc.integer({ min: 1, max: 9 }), checkAgainstEvaluator),
      { numRuns: 400 },
    );
    fc.assert(
      fc.property(market(40), spec({ minLength: 1, maxLength: 3 }, gradedRule), fc.integer({ min: 1, max: 9 }), checkAgainstEvaluator),
      { numRuns: 200 },
    );
  });

  it('agrees with it on a market large enough for the must rules to be reordered by a sample', () => {
    fc.assert(
      fc.property(market(3000), spec({ minLength: 0, maxLength: 4 }), (index, canonical) => checkAgainstEvaluator(index, canonical, 500)),
      { numRuns: 15 },
    );
  });
});
