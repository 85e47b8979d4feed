// Graded preferences (D41). A preferred rule `v <= value` with `"grade": {"zero_at": z}` earns its
// whole weight up to `value`, nothing from `z` on, and a straight line in between:
//   contribution = weight × clamp((z − v) / (z − value), 0, 1)
// The same expression serves gt/gte: there z < value, and (z − v)/(z − value) is (v − z)/(value − z)
// with both signs flipped, which IEEE arithmetic computes bit for bit alike. So one function is the
// whole rule, and the row evaluator and the columnar ranking call the same one.

import { isMissing, numericValue } from './compare.js';
import type { Op, PreferredGrade } from './types.js';

/** The ops a grade may qualify: it needs a direction to fall off in. */
export const GRADED_OPS: readonly Op[] = Object.freeze(['lt', 'lte', 'gt', 'gte']);

/** |zero_at| at most this: far beyond any measured fact, and keeps z − value finite. */
export const ZERO_AT_BOUND = 1e15;

/**
 * The share of its weight a graded rule gives a fact `v`: 1 up to `value`, 0 from `zeroAt` on
 * (and for NaN, a fact that is no number), linear in between. Callers hand it validated rules,
 * where `zeroAt` lies beyond `value` in the rule's direction, so the divisor is never 0.
 */
export function gradedShare(v: number, value: number, zeroAt: number): number {
  const ratio = (zeroAt - v) / (zeroAt - value);
  // NaN fails both comparisons and lands on 0.
  return ratio >= 1 ? 1 : ratio > 0 ? ratio : 0;
}

/** A fact as the number a graded rule measures: numbers and numeric strings, else NaN (a fail). */
export function gradedNumber(fact: unknown): number {
  return typeof fact === 'number' ? fact : typeof fact === 'string' ? numericValue(fact) : Number.NaN;
}

/**
 * What a graded rule adds for a fact: undefined when the fact is unknown (it then adds 0 and is
 * listed in `unknowns`, as any preferred rule's unknown is), else weight × share. -0 (a negative
 * weight times a share of 0) is written 0.
 */
export function compileGrade(value: number, grade: PreferredGrade, weight: number): (fact: unknown) => number | undefined {
  const zeroAt = grade.zero_at;
  return (fact) => {
    if (isMissing(fact)) return undefined;
    const contribution = weight * gradedShare(gradedNumber(fact), value, zeroAt);
    return contribution === 0 ? 0 : contribution;
  };
}

/**
 * What is wrong with a grade on this rule, or null when it may qualify it: the grade itself (an
 * op or value that has no direction to fall off in), or its zero_at (not beyond the rule's value:
 * it must be greater than the value of lt/lte, less than that of gt/gte).
 */
export function gradeProblem(
  op: Op,
  value: unknown,
  zeroAt: number,
): { where: 'grade'; sentence: string } | { where: 'zero_at'; mustBe: 'greater_than' | 'less_than'; bound: number } | null {
  if (!GRADED_OPS.includes(op)) return { where: 'grade', sentence: `a grade applies only to lt, lte, gt and gte rules, not ${op}` };
  if (typeof value !== 'number') return { where: 'grade', sentence: 'a grade needs a rule whose value is a number' };
  const falling = op === 'lt' || op === 'lte';
  if (falling && !(zeroAt > value)) return { where: 'zero_at', mustBe: 'greater_than', bound: value };
  if (!falling && !(zeroAt < value)) return { where: 'zero_at', mustBe: 'less_than', bound: value };
  return null;
}
