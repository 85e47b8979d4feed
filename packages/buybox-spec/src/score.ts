// Score and verdict arithmetic of D14, on their own so that the row evaluator and a columnar
// engine (which sums contributions a column at a time) round and cut exactly alike.

import type { CanonicalPreferredRule, Cutoffs, Verdict } from './types.js';

/**
 * preference_weight_total = Σ|weight| (D14). Validated weights (DRAFT_LIMITS.scoreInput) never
 * come near overflow; a spec stored before that bound might, and its total is then held at the
 * largest double rather than answered as Infinity (which JSON writes as null).
 */
export function preferenceWeightTotal(preferred: readonly Pick<CanonicalPreferredRule, 'weight'>[]): number {
  let total = 0;
  for (const rule of preferred) total += Math.abs(rule.weight);
  return Math.min(total, Number.MAX_VALUE);
}

/**
 * Rounds to 4 decimals on the exact binary value (toFixed's answer), so 66.66665 rounds the way its
 * stored double does rather than the way x·10⁴ happens to round; -0 becomes 0.
 *
 * toFixed costs about a microsecond, which graded preferences (D41) pay per parcel: their scores
 * are nearly all distinct. So the product x·10⁴ is rounded directly when it is clearly not a tie:
 * it is within half an ulp of the exact product, so unless its fraction lies within that of ½ the
 * exact product rounds to the same integer n, and n / 10⁴ (both exact, the division correctly
 * rounded) is the double nearest n·10⁻⁴ — the number toFixed's digits spell. Near-ties, huge and
 * non-finite values take toFixed. A property test holds the two equal.
 */
export function roundScore(score: number): number {
  const scaled = score * 10_000;
  const magnitude = Math.abs(scaled);
  if (magnitude < 2 ** 52) {
    const floor = Math.floor(scaled);
    const fraction = scaled - floor;
    if (Math.abs(fraction - 0.5) > magnitude * 1e-15 + 1e-12) {
      const rounded = (fraction > 0.5 ? floor + 1 : floor) / 10_000;
      return rounded === 0 ? 0 : rounded;
    }
  }
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
  const score = (100 * contributionSum) / weightTotal;
  if (Number.isFinite(score)) return roundScore(score);
  return finiteScore(contributionSum, weightTotal);
}

/**
 * Only weights far beyond the validated bound get here (100 × Σ overflowed): the same ratio taken
 * the other way round, held to [-100, 100], where |Σcontribution| ≤ Σ|weight| puts every score,
 * so that a score is always a number, a cursor can carry it and a verdict follows from it.
 */
function finiteScore(contributionSum: number, weightTotal: number): number {
  const score = 100 * (contributionSum / weightTotal);
  if (Number.isNaN(score)) return contributionSum > 0 ? 100 : contributionSum < 0 ? -100 : 0;
  return roundScore(Math.max(-100, Math.min(100, score)));
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
