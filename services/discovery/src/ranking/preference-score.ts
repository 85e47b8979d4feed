import { scoreOf, verdictOf, type Cutoffs } from '@landscreen/buybox-spec';
import type { Column } from './columns.js';
import type { Eligible } from './eligibility.js';
import { markAll } from './fused-kernels.js';
import { addGraded, type GradedRule } from './graded-score.js';
import { ruleKernel, type KernelRule } from './rule-kernels.js';
import type { Scratch } from './scratch.js';

export interface PreferredRule extends KernelRule, GradedRule {
  field: string;
  weight: number;
}

export interface PreferenceSpec {
  preferred: readonly PreferredRule[];
  preferenceWeightTotal: number;
  cutoffs: Cutoffs;
}

export type VerdictCounts = { PURSUE: number; MONITOR: number; HOLD: number };

export interface Scores {
  /** `scores[i]` is the score of eligible row `rows[i]`. */
  scores: Float64Array;
  byVerdict: VerdictCounts;
}

/**
 * Up to this many preferred rules, a row's contribution is the set of rules it passes, one bit
 * each, and scores and verdicts are worked out once per set that occurs. Beyond, weights are
 * summed per row (and judged once per distinct sum).
 */
export const MAX_RULES_BY_SET = 16;


/**
 * D14's score and verdict of every eligible row. Sums are added in the spec's rule order, as the
 * row-wise evaluator adds them, so a score here equals the score in the row's evidence bit for
 * bit, whatever the weights. A graded rule (D41) gives each row its own share of its weight, which
 * no set of passing rules describes: a spec with one is summed per row.
 */
export function scoreEligible(columnOf: (field: string) => Column | undefined, spec: PreferenceSpec, eligible: Eligible, work: Scratch): Scores {
  return spec.preferred.length <= MAX_RULES_BY_SET && !spec.preferred.some((rule) => rule.grade)
    ? scoreBySet(columnOf, spec, eligible, work)
    : scoreBySum(columnOf, spec, eligible, work);
}

function scoreBySet(columnOf: (field: string) => Column | undefined, spec: PreferenceSpec, eligible: Eligible, work: Scratch): Scores {
  const { rows, review, count } = eligible;
  const { preferred } = spec;
  const passed = work.passed.subarray(0, count);
  markAll(preferred.map((rule) => ruleKernel(columnOf(rule.field), rule)), rows, count, passed);

  const sets = 1 << preferred.length;
  const scoreOfSet = new Float64Array(sets).fill(Number.NaN);
  // Rows per (set, review) pair: verdicts are counted per pair at the end, not per row.
  const tally = new Uint32Array(sets * 2);
  const scores = new Float64Array(count);
  for (let index = 0; index < count; index++) {
    const set = passed[index]!;
    let value = scoreOfSet[set]!;
    if (value !== value) value = scoreOfSet[set] = scoreOf(sumOfSet(preferred, set), spec.preferenceWeightTotal);
    scores[index] = value;
    tally[set * 2 + review[rows[index]!]!]++;
  }

  const byVerdict: VerdictCounts = { PURSUE: 0, MONITOR: 0, HOLD: 0 };
  for (let pair = 0; pair < tally.length; pair++) {
    if (tally[pair] === 0) continue;
    byVerdict[verdictOf(scoreOfSet[pair >> 1]!, spec.cutoffs, (pair & 1) === 1)] += tally[pair]!;
  }
  return { scores, byVerdict };
}

/** The weights of the rules in `set`, added in rule order (as the evaluator adds them). */
function sumOfSet(preferred: readonly PreferredRule[], set: number): number {
  let sum = 0;
  for (let bit = 0; bit < preferred.length; bit++) if (set & (1 << bit)) sum += preferred[bit]!.weight;
  return sum;
}

function scoreBySum(columnOf: (field: string) => Column | undefined, spec: PreferenceSpec, eligible: Eligible, work: Scratch): Scores {
  const { rows, review, count } = eligible;
  const sums = work.sumsOf(count).fill(0);
  const passed = work.passed.subarray(0, count);
  for (const rule of spec.preferred) {
    if (rule.grade) {
      addGraded(columnOf(rule.field), rule, rows, count, sums);
      continue;
    }
    passed.fill(0);
    ruleKernel(columnOf(rule.field), rule).mark(rows, count, passed, 0);
    const weight = rule.weight;
    for (let index = 0; index < count; index++) if (passed[index] === 1) sums[index] += weight;
  }

  const scores = new Float64Array(count);
  const byVerdict: VerdictCounts = { PURSUE: 0, MONITOR: 0, HOLD: 0 };
  if (spec.preferred.some((rule) => rule.grade)) {
    // Graded rules make nearly every sum distinct: a memo would only cost (a boxed number per
    // lookup, an entry per row), so each row is scored and judged as it comes.
    for (let index = 0; index < count; index++) {
      const value = scoreOf(sums[index]!, spec.preferenceWeightTotal);
      scores[index] = value;
      byVerdict[verdictOf(value, spec.cutoffs, review[rows[index]!] === 1)]++;
    }
    return { scores, byVerdict };
  }
  // Sums of a few weights take few distinct values: score and judge each once, not per row.
  const judged = new Map<number, { score: number; plain: keyof VerdictCounts; reviewed: keyof VerdictCounts }>();
  for (let index = 0; index < count; index++) {
    const sum = sums[index]!;
    let judgement = judged.get(sum);
    if (judgement === undefined) {
      const value = scoreOf(sum, spec.preferenceWeightTotal);
      judgement = { score: value, plain: verdictOf(value, spec.cutoffs, false), reviewed: verdictOf(value, spec.cutoffs, true) };
      judged.set(sum, judgement);
    }
    scores[index] = judgement.score;
    byVerdict[review[rows[index]!] === 1 ? judgement.reviewed : judgement.plain]++;
  }
  return { scores, byVerdict };
}
