import { scoreOf } from '@landscreen/buybox-spec';
import { eligibleRows, type MustRule } from './eligibility.js';
import { scoreEligible, type PreferenceSpec, type PreferredRule, type VerdictCounts } from './preference-score.js';
import { scratch } from './scratch.js';
import { scoreByRow, type ScoreByRow } from './score-by-row.js';
import type { VintageIndex } from './vintage-index.js';

/** A rule as the ranking sees it: the fact it reads, the test of one value, the canonical op and value. */
export type RankMustRule = MustRule;
export type RankPreferredRule = PreferredRule;

export interface RankSpec extends PreferenceSpec {
  must: RankMustRule[];
  preferred: RankPreferredRule[];
}

/** The whole vintage evaluated against one spec; cached per query_hash. */
export interface Ranking {
  /** The eligible rows (they pass every must rule, review ones included), ascending. */
  rows: Uint32Array;
  /** `scores[i]` is the score of `rows[i]`. */
  scores: Float64Array;
  /** The score of an eligible row, by row number (what a cursor records). */
  score: ScoreByRow;
  eligibleTotal: number;
  byVerdict: VerdictCounts;
}

/**
 * Ranks a vintage against a spec (D14): the must rules narrow the rows down, most selective
 * first, and only the rows left are scored. No order is computed here: a page picks its rows
 * from the eligible ones (page.ts).
 */
export function rank(index: VintageIndex, spec: RankSpec): Ranking {
  const columnOf = (field: string) => index.column(field);
  const eligible = eligibleRows(index.size, columnOf, spec.must, scratch);
  const { scores, byVerdict } = scoreEligible(columnOf, spec, eligible, scratch);
  // The eligible rows live in the shared scratch buffers: the ranking keeps its own copy.
  const rows = eligible.rows.slice(0, eligible.count);
  return { rows, scores, score: scoreByRow(rows, scores), eligibleTotal: eligible.count, byVerdict };
}

export { scoreOf };
