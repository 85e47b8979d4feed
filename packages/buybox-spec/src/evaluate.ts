// Evaluation of one parcel against a canonical spec (D14). The discovery service runs this over a
// whole market (a million parcels), so the spec is compiled once — predicates, weight total,
// score memo — and a parcel costs one predicate call per rule plus its evidence arrays.

import { isMissing } from './compare.js';
import { compileGrade } from './grade.js';
import { compilePredicate, type Predicate } from './ops.js';
import { preferenceWeightTotal, roundScore, scoreOf, verdictOf } from './score.js';
import type {
  CanonicalSpec,
  Cutoffs,
  MustEvidence,
  Op,
  PreferredEvidence,
  PreferredGrade,
  RuleValue,
  UnknownPolicy,
  Verdict,
} from './types.js';

/** A must rule ready to run, also over a whole column by an engine that reads facts columnwise. */
export interface CompiledMustRule {
  readonly field: string;
  readonly op: Op;
  readonly value: RuleValue;
  readonly test: Predicate;
  readonly policy: UnknownPolicy;
}

export interface CompiledPreferredRule {
  readonly field: string;
  readonly op: Op;
  readonly value: RuleValue;
  readonly test: Predicate;
  readonly weight: number;
  /** D41: present on a graded rule, whose contribution is `graded(fact)` rather than all or nothing. */
  readonly grade?: PreferredGrade;
  /** A graded rule's contribution for a fact; undefined when the fact is unknown. */
  readonly graded?: (fact: unknown) => number | undefined;
}

export interface Evaluation {
  /** Passes every must rule; review-policy unknowns included (D14). */
  eligible: boolean;
  score: number;
  verdict: Verdict;
  reviewRequired: boolean;
  /** Fields whose unknown fact matters: must rules with policy review, then preferred rules. */
  unknowns: string[];
  must: MustEvidence[];
  preferred: PreferredEvidence[];
  /** The evidence that made the parcel ineligible: failures and unknowns under policy exclude. */
  failed: MustEvidence[];
}

export interface CompiledSpec {
  readonly spec: CanonicalSpec;
  readonly must: readonly CompiledMustRule[];
  readonly preferred: readonly CompiledPreferredRule[];
  readonly cutoffs: Cutoffs;
  /** Σ|weight| of the preferred rules (D14). */
  readonly preferenceWeightTotal: number;
  /** The rounded score for a sum of contributions. */
  scoreOf(contributionSum: number): number;
  verdictOf(score: number, reviewRequired: boolean, eligible?: boolean): Verdict;
  evaluate(factOf: (field: string) => unknown): Evaluation;
}

// Scores only depend on which preferred rules pass, so a market yields few distinct sums; the
// memo spares the rounding (a toFixed per parcel). Bounded so a pathological spec cannot grow it.
const SCORE_MEMO_LIMIT = 4096;

function pushOnce(list: string[], field: string): void {
  if (!list.includes(field)) list.push(field);
}

/** Compiles a canonical spec (from normaliseDraft) into its evaluator. */
export function compileSpec(spec: CanonicalSpec): CompiledSpec {
  const must: CompiledMustRule[] = spec.must.map((rule) => ({
    field: rule.field,
    op: rule.op,
    value: rule.value,
    test: compilePredicate(rule.op, rule.value),
    policy: rule.unknown,
  }));
  const preferred: CompiledPreferredRule[] = spec.preferred.map((rule) => ({
    field: rule.field,
    op: rule.op,
    value: rule.value,
    test: compilePredicate(rule.op, rule.value),
    weight: rule.weight,
    ...(rule.grade ? { grade: rule.grade, graded: compileGrade(rule.value as number, rule.grade, rule.weight) } : {}),
  }));
  const cutoffs = spec.verdict_cutoffs;
  const weightTotal = preferenceWeightTotal(spec.preferred);
  const memo = new Map<number, number>();

  const score = (contributionSum: number): number => {
    const known = memo.get(contributionSum);
    if (known !== undefined) return known;
    const computed = scoreOf(contributionSum, weightTotal);
    if (memo.size < SCORE_MEMO_LIMIT) memo.set(contributionSum, computed);
    return computed;
  };

  const evaluate = (factOf: (field: string) => unknown): Evaluation => {
    let eligible = true;
    let reviewRequired = false;
    const unknowns: string[] = [];
    const failed: MustEvidence[] = [];
    const mustEvidence: MustEvidence[] = new Array(must.length);
    for (let i = 0; i < must.length; i++) {
      const rule = must[i];
      const fact = factOf(rule.field);
      const outcome = rule.test(fact);
      // JSON has no undefined or NaN: a missing fact is reported as null.
      const value = isMissing(fact) ? null : fact;
      if (outcome === true) {
        mustEvidence[i] = { field: rule.field, value, status: 'pass' };
        continue;
      }
      const evidence: MustEvidence = { field: rule.field, value, status: outcome === false ? 'fail' : 'unknown' };
      mustEvidence[i] = evidence;
      if (outcome === undefined && rule.policy === 'review') {
        reviewRequired = true;
        pushOnce(unknowns, rule.field);
      } else {
        eligible = false;
        failed.push(evidence);
      }
    }

    let sum = 0;
    const preferredEvidence: PreferredEvidence[] = new Array(preferred.length);
    for (let i = 0; i < preferred.length; i++) {
      const rule = preferred[i];
      const fact = factOf(rule.field);
      const value = isMissing(fact) ? null : fact;
      if (rule.graded) {
        // D41: a share of the weight; the sum takes it exactly, the evidence shows it to 4 decimals.
        const contribution = rule.graded(fact);
        if (contribution === undefined) pushOnce(unknowns, rule.field);
        sum += contribution ?? 0;
        preferredEvidence[i] = { field: rule.field, value, weight: rule.weight, contribution: roundScore(contribution ?? 0) };
        continue;
      }
      const outcome = rule.test(fact);
      // A passing rule contributes its weight, negative weights included; anything else 0.
      const contribution = outcome === true ? rule.weight : 0;
      if (outcome === undefined) pushOnce(unknowns, rule.field);
      sum += contribution;
      preferredEvidence[i] = { field: rule.field, value, weight: rule.weight, contribution };
    }

    const parcelScore = score(sum);
    return {
      eligible,
      score: parcelScore,
      verdict: verdictOf(parcelScore, cutoffs, reviewRequired, eligible),
      reviewRequired,
      unknowns,
      must: mustEvidence,
      preferred: preferredEvidence,
      failed,
    };
  };

  return {
    spec,
    must,
    preferred,
    cutoffs,
    preferenceWeightTotal: weightTotal,
    scoreOf: score,
    verdictOf: (s, review, eligible = true) => verdictOf(s, cutoffs, review, eligible),
    evaluate,
  };
}
