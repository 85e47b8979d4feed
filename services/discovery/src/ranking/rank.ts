import { scoreOf, type compileSpec } from '@landscreen/buybox-spec';
import type { Column } from './columns.js';
import { eligibleRows, type MustRule } from './eligibility.js';
import { scoreEligible, type PreferenceSpec, type PreferredRule, type VerdictCounts } from './preference-score.js';
import { scratch } from './scratch.js';
import type { VintageIndex } from './vintage-index.js';

/** Rules as the ranking sees them: the fact each reads, the test of one value, the canonical op and value. */
export interface RankSpec extends PreferenceSpec {
  must: MustRule[];
  preferred: PreferredRule[];
}

/** What ranking needs of a compiled canonical spec. */
export function rankSpecOf(compiled: ReturnType<typeof compileSpec>): RankSpec {
  return {
    must: compiled.must.map((rule) => ({ field: rule.field, test: rule.test, policy: rule.policy, op: rule.op, value: rule.value })),
    preferred: compiled.preferred.map((rule) => ({
      field: rule.field,
      test: rule.test,
      weight: rule.weight,
      op: rule.op,
      value: rule.value,
      ...(rule.grade ? { grade: rule.grade, graded: rule.graded } : {}),
    })),
    preferenceWeightTotal: compiled.preferenceWeightTotal,
    cutoffs: compiled.cutoffs,
  };
}

/** The fields a spec's rules read: the columns a ranking of it needs resident. */
export function specFields(spec: Pick<RankSpec, 'must' | 'preferred'>): string[] {
  return [...new Set([...spec.must.map((rule) => rule.field), ...spec.preferred.map((rule) => rule.field)])];
}

/** Rows of a ranking in D15 order (score desc, parcel_key asc), as page.ts picks them. */
export interface Page {
  rows: number[];
  /** `scores[i]` is the score of `rows[i]` (the last one goes into the next page's cursor). */
  scores: number[];
  /** Eligible rows after the page: there is a next page when > 0. */
  remaining: number;
}

/** The whole vintage evaluated against one spec; cached per query_hash. */
export interface Ranking {
  /** The eligible rows (they pass every must rule, review ones included), ascending. */
  rows: Uint32Array;
  /** `scores[i]` is the score of `rows[i]`. */
  scores: Float64Array;
  /** `review[i]` is 1 when `rows[i]` passed only because an unknown fact is on review (at most MONITOR). */
  review: Uint8Array;
  eligibleTotal: number;
  byVerdict: VerdictCounts;
  /** Its best rows in D15 order, kept by the first page asked of it (page.ts). */
  head?: Page;
}

/**
 * Ranks a vintage against a spec (D14): the must rules narrow the rows down, most selective
 * first, and only the rows left are scored. No order is computed here: a page picks its rows
 * from the eligible ones (page.ts).
 */
export function rank(index: VintageIndex, spec: RankSpec, columnOf: (field: string) => Column | undefined = (field) => index.column(field)): Ranking {
  const eligible = eligibleRows(index.size, columnOf, spec.must, scratch);
  const { scores, byVerdict } = scoreEligible(columnOf, spec, eligible, scratch);
  // The eligible rows live in the shared scratch buffers: the ranking keeps its own copy.
  const rows = eligible.rows.slice(0, eligible.count);
  const review = new Uint8Array(eligible.count);
  for (let i = 0; i < eligible.count; i++) review[i] = eligible.review[rows[i]!]!;
  return { rows, scores, review, eligibleTotal: eligible.count, byVerdict };
}

export { scoreOf };
