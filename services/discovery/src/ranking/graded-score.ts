import { gradedShare, type PreferredGrade } from '@landscreen/buybox-spec';
import { valueAt, type Column } from './columns.js';

/** A graded preferred rule (D41) as the ranking sees it. */
export interface GradedRule {
  weight: number;
  value?: unknown;
  grade?: PreferredGrade;
  /** The rule's contribution for a fact, as the row-wise evaluator computes it; undefined when unknown. */
  graded?: (fact: unknown) => number | undefined;
}

/**
 * Adds a graded rule's contribution of each row `rows[i]` to `sums[i]`. On a number column the
 * share is computed in the loop, with the very function the row-wise evaluator calls (so the sums,
 * and the scores rounded from them, are the same bit for bit); any other column asks the rule per
 * row (on a coded column, once per distinct value). A missing fact adds nothing, as an unknown
 * preferred fact scores 0 (D14).
 */
export function addGraded(column: Column | undefined, rule: GradedRule, rows: Uint32Array, count: number, sums: Float64Array): void {
  const contributionOf = rule.graded!;
  if (column?.kind === 'number' && typeof rule.value === 'number') {
    const { values } = column;
    const weight = rule.weight;
    const value = rule.value;
    const zeroAt = rule.grade!.zero_at;
    for (let index = 0; index < count; index++) {
      const fact = values[rows[index]!]!;
      // NaN is no value; the evaluator writes −0 (a negative weight's share of 0) as 0, and adding
      // either to a sum that started at +0 gives the same sum.
      if (fact === fact) sums[index] += weight * gradedShare(fact, value, zeroAt);
    }
    return;
  }
  if (column === undefined) return;
  if (column.kind === 'coded') {
    // Each distinct value's contribution once, by slot (slot 0 is "no value"): the numbers the
    // per-row call below would add.
    const { slots } = column;
    const table = new Float64Array(column.dictionary.length + 1);
    table[0] = contributionOf(null) ?? 0;
    column.dictionary.forEach((value, code) => (table[code + 1] = contributionOf(value) ?? 0));
    for (let index = 0; index < count; index++) sums[index] += table[slots[rows[index]!]!]!;
    return;
  }
  for (let index = 0; index < count; index++) sums[index] += contributionOf(valueAt(column, rows[index]!)) ?? 0;
}
