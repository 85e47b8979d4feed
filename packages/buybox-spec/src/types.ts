// The shapes of a buy-box spec: the DiscoveryDraft of the API spec as a caller writes it, and
// the canonical form (D11) every service stores, hashes and evaluates. The draft types are loose
// where the wire is loose (`op` is any string, `value` any JSON) because validating them is the
// job of `normaliseDraft`; the canonical types are tight because nothing unvalidated gets there.

/** The rule operators of D10, canonical spelling, in the order the design lists them. */
export const OPS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'not_in', 'between', 'contains', 'exists'] as const;
export type Op = (typeof OPS)[number];

/** What a must rule does when the parcel's fact is null or missing (D14). */
export const UNKNOWN_POLICIES = ['exclude', 'review'] as const;
export type UnknownPolicy = (typeof UNKNOWN_POLICIES)[number];

/** A JSON scalar: what `eq`, `ne`, `contains` and the members of an `in` list may be. */
export type Scalar = string | number | boolean | null;

/** The value of a rule once its shape has been checked against its op. */
export type RuleValue = Scalar | readonly Scalar[];

export interface Rule {
  field: string;
  op: string;
  value: unknown;
  unknown?: UnknownPolicy | null;
}

export interface PreferredRule {
  field: string;
  op: string;
  value: unknown;
  weight: number;
  /** D41: a graded preference (lt/lte/gt/gte on a number only); absent or null: D14's all or nothing. */
  grade?: PreferredGrade | null;
}

/**
 * D41: where a graded preference stops earning. The rule earns its whole weight up to its value
 * and nothing from `zero_at` on, linearly in between.
 */
export interface PreferredGrade {
  zero_at: number;
}

export interface Cutoffs {
  pursue: number;
  monitor: number;
}

export interface DiscoveryDraft {
  markets: string[];
  must?: Rule[];
  preferred?: PreferredRule[];
  verdict_cutoffs: Cutoffs;
}

/** A must rule in canonical form: the policy is always explicit so that equal specs hash alike. */
export interface CanonicalRule {
  field: string;
  op: Op;
  value: RuleValue;
  unknown: UnknownPolicy;
}

/**
 * A preferred rule in canonical form. It has no unknown policy: an unknown fact scores 0. `grade`
 * is present only on a graded rule, so that an ungraded rule's canonical JSON (and every hash
 * built on it) is the same as before grades existed.
 */
export interface CanonicalPreferredRule {
  field: string;
  op: Op;
  value: RuleValue;
  weight: number;
  grade?: PreferredGrade;
}

/**
 * The canonical spec (D11). It is itself a valid DiscoveryDraft, so it can be answered as the
 * `applied_spec` of a query and stored as the `spec` of a buy box.
 */
export interface CanonicalSpec {
  markets: [string];
  must: CanonicalRule[];
  preferred: CanonicalPreferredRule[];
  verdict_cutoffs: Cutoffs;
}

export type Verdict = 'PURSUE' | 'MONITOR' | 'HOLD';
export type MustStatus = 'pass' | 'fail' | 'unknown';

/** MustEvidence of the API spec's ScoreBreakdown. */
export interface MustEvidence {
  field: string;
  value: unknown;
  status: MustStatus;
}

/** PreferredEvidence of the API spec's ScoreBreakdown. */
export interface PreferredEvidence {
  field: string;
  value: unknown;
  weight: number;
  contribution: number;
}

/**
 * One validation failure in the pydantic v2 shape of D1. `loc` is relative to the draft; the
 * caller prefixes where the draft sits in its request (`["body", "spec", …]`).
 */
export type { ValidationIssue } from '@landscreen/validation';
