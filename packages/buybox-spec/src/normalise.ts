// Draft → canonical spec (D10, D11). Validation and canonicalisation are one pass because the
// canonical form is only defined for a valid draft, and every issue is reported (D1), not the
// first: a user fixing a buy box should see all of its mistakes at once.

import { canonicalJson } from './hash.js';
import { issue, type Loc } from '@landscreen/validation';
import { ACCEPTED_OPS, normaliseOp, valueShapeError } from './ops.js';
import { gradeProblem, ZERO_AT_BOUND } from './grade.js';
import { CATALOG_FIELD_NAMES, suggestField, unknownFieldSentence } from './suggest.js';
import {
  UNKNOWN_POLICIES,
  type CanonicalPreferredRule,
  type CanonicalRule,
  type CanonicalSpec,
  type Cutoffs,
  type Op,
  type PreferredGrade,
  type RuleValue,
  type Scalar,
  type UnknownPolicy,
  type ValidationIssue,
} from './types.js';

/** Limits of the API spec (DiscoveryDraft, Rule, PreferredRule, Limits table). */
export const DRAFT_LIMITS = Object.freeze({
  markets: 1,
  marketLength: 100,
  rules: 50,
  fieldLength: 100,
  opLength: 20,
  /**
   * |weight| and |cutoff| at most this (the spec gives no bound): 50 rules of such weights sum
   * to 5e7, so 100 × Σ and every score stay finite and exact to the 4 decimals they are rounded
   * to; a score lies in [-100, 100], so no useful cutoff comes near. docs/decisions.md.
   */
  scoreInput: 1_000_000,
});

export interface NormaliseOptions {
  /** Whether a rule may name this field: the catalog's fields plus the parcel schema's (D10, D13). */
  knownField(field: string): boolean;
  /** Names to draw a did-you-mean from; the catalog's field names when absent. */
  fieldNames?: Iterable<string>;
}

export type NormaliseResult = { spec: CanonicalSpec } | { issues: ValidationIssue[] };

const DRAFT_KEYS = new Set(['markets', 'must', 'preferred', 'verdict_cutoffs']);
const MUST_KEYS = new Set(['field', 'op', 'value', 'unknown']);
const PREFERRED_KEYS = new Set(['field', 'op', 'value', 'weight', 'grade']);
const GRADE_KEYS = new Set(['zero_at']);
const CUTOFF_KEYS = new Set(['pursue', 'monitor']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Collects issues while the draft is walked; each check returns its cleaned value or undefined. */
class Checker {
  readonly issues: ValidationIssue[] = [];
  private suggestionPool: readonly string[] | undefined;

  constructor(private readonly options: NormaliseOptions) {}

  record(input: unknown, loc: Loc, allowed: Set<string>): input is Record<string, unknown> {
    if (!isRecord(input)) {
      this.issues.push(issue.dictType(loc, input));
      return false;
    }
    for (const key of Object.keys(input)) {
      if (!allowed.has(key)) this.issues.push(issue.extraForbidden([...loc, key], input[key]));
    }
    return true;
  }

  /** A required string of bounded length, trimmed: stray spaces must not change a hash. */
  string(owner: Record<string, unknown> | readonly unknown[], key: string | number, loc: Loc, max: number): string | undefined {
    const input = (owner as Record<string | number, unknown>)[key];
    if (!Object.hasOwn(owner, key) || input === undefined) {
      this.issues.push(issue.missing(loc, owner));
      return undefined;
    }
    if (typeof input !== 'string') {
      this.issues.push(issue.stringType(loc, input));
      return undefined;
    }
    const trimmed = input.trim();
    if (trimmed.length < 1) {
      this.issues.push(issue.stringTooShort(loc, input, 1));
      return undefined;
    }
    // Lengths count code points, as pydantic (and the gateway) do: an astral character is one.
    if ([...trimmed].length > max) {
      this.issues.push(issue.stringTooLong(loc, input, max));
      return undefined;
    }
    return trimmed;
  }

  /**
   * A required finite number within ±`bound`; numeric strings are accepted as the gateway accepts
   * them (lax mode).
   */
  number(owner: Record<string, unknown>, key: string, loc: Loc, bound: number): number | undefined {
    if (!Object.hasOwn(owner, key) || owner[key] === undefined) {
      this.issues.push(issue.missing(loc, owner));
      return undefined;
    }
    const input = owner[key];
    let value: number;
    if (typeof input === 'number') value = input;
    else if (typeof input === 'string') {
      value = input.trim() === '' ? Number.NaN : Number(input);
      if (Number.isNaN(value)) {
        this.issues.push(issue.floatParsing(loc, input));
        return undefined;
      }
    } else {
      this.issues.push(issue.floatType(loc, input));
      return undefined;
    }
    if (!Number.isFinite(value)) {
      this.issues.push(issue.finiteNumber(loc, input));
      return undefined;
    }
    if (value > bound || value < -bound) {
      this.issues.push(value > bound ? issue.lessThanEqual(loc, input, bound) : issue.greaterThanEqual(loc, input, -bound));
      return undefined;
    }
    return value === 0 ? 0 : value; // -0 → 0
  }

  list(owner: Record<string, unknown>, key: string, loc: Loc, max: number): unknown[] | undefined {
    const input = owner[key];
    if (!Array.isArray(input)) {
      this.issues.push(issue.listType(loc, input));
      return undefined;
    }
    if (input.length > max) this.issues.push(issue.tooLong(loc, input, max, input.length));
    return input;
  }

  field(rule: Record<string, unknown>, loc: Loc): string | undefined {
    const field = this.string(rule, 'field', [...loc, 'field'], DRAFT_LIMITS.fieldLength);
    if (field === undefined) return undefined;
    if (!this.options.knownField(field)) {
      this.suggestionPool ??= [...(this.options.fieldNames ?? CATALOG_FIELD_NAMES)];
      const suggestion = suggestField(field, this.suggestionPool);
      this.issues.push(
        issue.valueError([...loc, 'field'], rule.field, unknownFieldSentence(field, suggestion), {
          did_you_mean: suggestion,
        }),
      );
      return undefined;
    }
    return field;
  }

  /** Op and value together: the value's shape can only be judged against a known op. */
  opAndValue(rule: Record<string, unknown>, loc: Loc): { op: Op; value: RuleValue } | undefined {
    const raw = this.string(rule, 'op', [...loc, 'op'], DRAFT_LIMITS.opLength);
    const op = raw === undefined ? null : normaliseOp(raw);
    if (raw !== undefined && op === null) this.issues.push(issue.literalError([...loc, 'op'], rule.op, ACCEPTED_OPS));
    if (!Object.hasOwn(rule, 'value') || rule.value === undefined) {
      this.issues.push(issue.missing([...loc, 'value'], rule));
      return undefined;
    }
    if (op === null) return undefined;
    const problem = valueShapeError(op, rule.value);
    if (problem !== null) {
      this.issues.push(issue.valueError([...loc, 'value'], rule.value, problem));
      return undefined;
    }
    return { op, value: canonicalValue(op, rule.value as RuleValue) };
  }

  /**
   * D41: a preferred rule's grade, checked against its op and value (when those are known), or
   * null when it has none; undefined when it is wrong.
   */
  grade(rule: Record<string, unknown>, loc: Loc, opValue: { op: Op; value: RuleValue } | undefined): PreferredGrade | null | undefined {
    const input = rule.grade;
    // Omitted and null both mean an ungraded rule, whose canonical form has no grade at all.
    if (input === undefined || input === null) return null;
    const gradeLoc: Loc = [...loc, 'grade'];
    if (!this.record(input, gradeLoc, GRADE_KEYS)) return undefined;
    const zeroAt = this.number(input, 'zero_at', [...gradeLoc, 'zero_at'], ZERO_AT_BOUND);
    if (zeroAt === undefined || opValue === undefined) return undefined;
    const problem = gradeProblem(opValue.op, opValue.value, zeroAt);
    if (problem === null) return { zero_at: zeroAt };
    if (problem.where === 'grade') this.issues.push(issue.valueError(gradeLoc, input, problem.sentence));
    else {
      const zeroAtLoc: Loc = [...gradeLoc, 'zero_at'];
      this.issues.push(
        problem.mustBe === 'greater_than' ? issue.greaterThan(zeroAtLoc, input.zero_at, problem.bound) : issue.lessThan(zeroAtLoc, input.zero_at, problem.bound),
      );
    }
    return undefined;
  }

  policy(rule: Record<string, unknown>, loc: Loc): UnknownPolicy | undefined {
    const input = rule.unknown;
    // Omitted and null both mean the default, and are written out so that they hash alike.
    if (input === undefined || input === null) return 'exclude';
    if (input === 'exclude' || input === 'review') return input;
    this.issues.push(issue.literalError([...loc, 'unknown'], input, UNKNOWN_POLICIES));
    return undefined;
  }
}

/** -0 is 0: JSON would write both as 0 anyway, and the evaluator must not tell them apart. */
function canonicalScalar(value: Scalar): Scalar {
  return value === 0 ? 0 : value;
}

/** `in`/`not_in` lists are sets: duplicates dropped, members in canonical-JSON order. */
function canonicalValue(op: Op, value: RuleValue): RuleValue {
  if (!Array.isArray(value)) return canonicalScalar(value as Scalar);
  const items = (value as readonly Scalar[]).map(canonicalScalar);
  if (op !== 'in' && op !== 'not_in') return items; // between: [lo, hi] keeps its order
  const byJson = new Map<string, Scalar>();
  for (const item of items) byJson.set(canonicalJson(item), item);
  return [...byJson.keys()].sort(compareCodeUnits).map((key) => byJson.get(key) as Scalar);
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** D11 order: field, then op, then canonical value; the whole rule breaks remaining ties. */
function compareRules(a: CanonicalRule | CanonicalPreferredRule, b: CanonicalRule | CanonicalPreferredRule): number {
  return (
    compareCodeUnits(a.field, b.field) ||
    compareCodeUnits(a.op, b.op) ||
    compareCodeUnits(canonicalJson(a.value), canonicalJson(b.value)) ||
    compareCodeUnits(canonicalJson(a), canonicalJson(b))
  );
}

function checkMust(checker: Checker, input: unknown, index: number): CanonicalRule | undefined {
  const loc: Loc = ['must', index];
  if (!checker.record(input, loc, MUST_KEYS)) return undefined;
  const field = checker.field(input, loc);
  const opValue = checker.opAndValue(input, loc);
  const policy = checker.policy(input, loc);
  if (field === undefined || opValue === undefined || policy === undefined) return undefined;
  return { field, op: opValue.op, value: opValue.value, unknown: policy };
}

function checkPreferred(checker: Checker, input: unknown, index: number): CanonicalPreferredRule | undefined {
  const loc: Loc = ['preferred', index];
  if (!checker.record(input, loc, PREFERRED_KEYS)) return undefined;
  const field = checker.field(input, loc);
  const opValue = checker.opAndValue(input, loc);
  const weight = checker.number(input, 'weight', [...loc, 'weight'], DRAFT_LIMITS.scoreInput);
  const grade = checker.grade(input, loc, opValue);
  if (field === undefined || opValue === undefined || weight === undefined || grade === undefined) return undefined;
  // The grade key only on a graded rule: an ungraded rule canonicalises (and hashes) as before D41.
  return grade === null ? { field, op: opValue.op, value: opValue.value, weight } : { field, op: opValue.op, value: opValue.value, weight, grade };
}

function checkMarkets(checker: Checker, draft: Record<string, unknown>): [string] | undefined {
  if (!Object.hasOwn(draft, 'markets') || draft.markets === undefined) {
    checker.issues.push(issue.missing(['markets'], draft));
    return undefined;
  }
  const markets = checker.list(draft, 'markets', ['markets'], DRAFT_LIMITS.markets);
  if (markets === undefined) return undefined;
  if (markets.length < 1) {
    checker.issues.push(issue.tooShort(['markets'], markets, 1, markets.length));
    return undefined;
  }
  const cleaned = markets.map((_, index) => checker.string(markets, index, ['markets', index], DRAFT_LIMITS.marketLength));
  if (markets.length !== 1 || cleaned[0] === undefined) return undefined;
  return [cleaned[0]];
}

function checkCutoffs(checker: Checker, draft: Record<string, unknown>): Cutoffs | undefined {
  if (!Object.hasOwn(draft, 'verdict_cutoffs') || draft.verdict_cutoffs === undefined) {
    checker.issues.push(issue.missing(['verdict_cutoffs'], draft));
    return undefined;
  }
  const input = draft.verdict_cutoffs;
  if (!checker.record(input, ['verdict_cutoffs'], CUTOFF_KEYS)) return undefined;
  const pursue = checker.number(input, 'pursue', ['verdict_cutoffs', 'pursue'], DRAFT_LIMITS.scoreInput);
  const monitor = checker.number(input, 'monitor', ['verdict_cutoffs', 'monitor'], DRAFT_LIMITS.scoreInput);
  if (pursue === undefined || monitor === undefined) return undefined;
  return { pursue, monitor };
}

/**
 * Validates a DiscoveryDraft and returns its canonical spec (D11), or every issue found with
 * `loc` relative to the draft. The canonical spec: ops in canonical spelling; must rules with
 * their unknown policy always explicit; exact duplicate must rules dropped (they cannot change
 * an outcome); rules sorted by (field, op, canonical value); `in`/`not_in` lists de-duplicated
 * and sorted; -0 written as 0; the one market trimmed; the cutoffs as given; a preferred rule's
 * grade (D41) kept as `{"zero_at"}` when given, and no `grade` key at all when not (or null).
 */
export function normaliseDraft(draft: unknown, options: NormaliseOptions): NormaliseResult {
  const checker = new Checker(options);
  if (!checker.record(draft, [], DRAFT_KEYS)) return { issues: checker.issues };

  const markets = checkMarkets(checker, draft);

  const must: CanonicalRule[] = [];
  if (draft.must !== undefined) {
    const rules = checker.list(draft, 'must', ['must'], DRAFT_LIMITS.rules) ?? [];
    rules.forEach((rule, index) => {
      const checked = checkMust(checker, rule, index);
      if (checked) must.push(checked);
    });
  }

  const preferred: CanonicalPreferredRule[] = [];
  if (draft.preferred !== undefined) {
    const rules = checker.list(draft, 'preferred', ['preferred'], DRAFT_LIMITS.rules) ?? [];
    rules.forEach((rule, index) => {
      const checked = checkPreferred(checker, rule, index);
      if (checked) preferred.push(checked);
    });
  }

  const cutoffs = checkCutoffs(checker, draft);

  if (checker.issues.length > 0 || markets === undefined || cutoffs === undefined) return { issues: checker.issues };

  must.sort(compareRules);
  preferred.sort(compareRules);
  return {
    spec: {
      markets,
      must: must.filter((rule, index) => index === 0 || compareRules(must[index - 1], rule) !== 0),
      // Duplicate preferred rules are kept: each one weighs, so two of them mean more than one.
      preferred,
      verdict_cutoffs: cutoffs,
    },
  };
}

/** True when a normalise result is a canonical spec (a type guard for callers). */
export function isNormalised(result: NormaliseResult): result is { spec: CanonicalSpec } {
  return 'spec' in result;
}
