// Score and verdict arithmetic of D14, on their own so that the row evaluator and a columnar
// engine (which sums contributions a column at a time) round and cut exactly alike.

import type { CanonicalPreferredRule, Cutoffs, Verdict } from './types.js';

/** preference_weight_total = Σ|weight| (D14). */
export function preferenceWeightTotal(preferred: readonly Pick<CanonicalPreferredRule, 'weight'>[]): number {
  let total = 0;
  for (const rule of preferred) total += Math.abs(rule.weight);
  return total;
}

/**
 * Rounds to 4 decimals on the exact binary value (toFixed), so 66.66665 rounds the way its stored
 * double does rather than the way x·10⁴ happens to round; -0 becomes 0.
 */
export function roundScore(score: number): number {
  const rounded = Number(score.toFixed(4));
  return rounded === 0 ? 0 : rounded;
}

/**
 * score = 100 × Σcontribution / preference_weight_total, rounded to 4 decimals (D14). With no
 * preferred rules the score is 100, and so it is when every weight is 0: nothing was asked for
 * beyond the must rules, which the parcel passed.
 */
export function scoreOf(contributionSum: number, weightTotal: number): number {
  if (weightTotal === 0) return 100;
  return roundScore((100 * contributionSum) / weightTotal);
}

/**
 * Verdict (D14): score ≥ pursue → PURSUE, else score ≥ monitor → MONITOR, else HOLD; a parcel
 * needing review is at most MONITOR; a parcel that is not eligible is HOLD (the API spec saves a
 * direct screen that fails a must-have with verdict HOLD).
 */
export function verdictOf(score: number, cutoffs: Cutoffs, reviewRequired: boolean, eligible = true): Verdict {
  if (!eligible) return 'HOLD';
  if (score >= cutoffs.pursue) return reviewRequired ? 'MONITOR' : 'PURSUE';
  if (score >= cutoffs.monitor) return 'MONITOR';
  return 'HOLD';
}
