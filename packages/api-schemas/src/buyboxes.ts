import { Type, type Static } from '@sinclair/typebox';
import { Closed, Nullable, OneOf, OpenRecord, Str, Timestamp, Uuid } from './building-blocks.js';

// The buy-box spec (D10-D14) is a request shape and an answer shape at once: what a client sends
// as a draft is what a saved buy box, a query's applied_spec and a delivery answer.

const ruleFields = {
  field: Str(1, 100, { description: 'A fact of the parcel: typed, free or derived (D13).' }),
  op: Str(1, 20, { description: 'eq ne lt lte gt gte in not_in between contains exists, or = == != < <= > >= (D10).' }),
  value: Type.Unknown({ description: 'Any JSON; its shape depends on the op (D10).' }),
};

export const UNKNOWN_POLICIES = ['exclude', 'review'] as const;

export const Rule = Closed(
  {
    ...ruleFields,
    unknown: Type.Optional(Nullable(OneOf(UNKNOWN_POLICIES), { description: 'Policy when the fact is unknown (D14); default exclude.' })),
  },
  { $id: 'Rule' },
);

/**
 * Weights and cutoffs are bounded so that every score is a finite number (a weight of 1e307 made
 * 100 × Σ overflow): the bound of DRAFT_LIMITS in @landscreen/buybox-spec, which the discovery
 * service applies too (docs/decisions.md, "Weights and cutoffs are bounded").
 */
const SCORE_INPUT_BOUND = 1_000_000;
const Bounded = (description: string) => Type.Number({ minimum: -SCORE_INPUT_BOUND, maximum: SCORE_INPUT_BOUND, description });

/**
 * D41: a graded preference falls linearly from its whole weight at `value` to 0 at `zero_at`.
 * Whether the rule may carry one (lt/lte/gt/gte on a number, zero_at beyond the value) is judged
 * with the rule's op and value by the discovery service, as every other rule check (D10).
 */
export const PreferredGrade = Closed(
  {
    zero_at: Type.Number({
      minimum: -1e15,
      maximum: 1e15,
      description: 'The fact value from which the rule earns nothing: above `value` for lt/lte, below it for gt/gte.',
    }),
  },
  {
    $id: 'PreferredGrade',
    description:
      'D41: the rule earns weight × clamp((zero_at − v) / (zero_at − value), 0, 1) for a fact v, so a parcel just past the threshold still earns part of it. Only on lt, lte, gt and gte rules with a numeric value.',
  },
);

export const PreferredRule = Closed(
  {
    ...ruleFields,
    weight: Bounded('What the rule adds to the score when it passes (D14).'),
    grade: Type.Optional(Nullable(PreferredGrade, { description: 'D41: a graded preference; absent or null: all or nothing (D14).' })),
  },
  { $id: 'PreferredRule' },
);

export const Cutoffs = Closed(
  { pursue: Bounded('Score from which a parcel is PURSUE (D14).'), monitor: Bounded('Score from which a parcel is MONITOR (D14).') },
  { $id: 'Cutoffs' },
);

export const DiscoveryDraft = Closed(
  {
    markets: Type.Array(Str(1, 100), { minItems: 1, maxItems: 1 }),
    must: Type.Optional(Type.Array(Rule, { maxItems: 50 })),
    preferred: Type.Optional(Type.Array(PreferredRule, { maxItems: 50 })),
    verdict_cutoffs: Cutoffs,
  },
  { $id: 'DiscoveryDraft', description: 'A buy-box spec: one market, must-have rules, weighted preferences, verdict cutoffs.' },
);
export type DiscoveryDraft = Static<typeof DiscoveryDraft>;

/**
 * A spec as the server stores and applies it (D11): a DiscoveryDraft in canonical form, whose
 * weights and cutoffs are the ones stored. The ±1,000,000 bound is an input limit: a box saved
 * before it (docs/decisions.md, "Weights and cutoffs are bounded") answers its weights as saved.
 */
export const AppliedSpec = Closed(
  {
    markets: Type.Array(Str(1, 100), { minItems: 1, maxItems: 1 }),
    must: Type.Optional(Type.Array(Rule, { maxItems: 50 })),
    preferred: Type.Optional(Type.Array(Closed({ ...ruleFields, weight: Type.Number(), grade: Type.Optional(PreferredGrade) }), { maxItems: 50 })),
    verdict_cutoffs: Closed({ pursue: Type.Number(), monitor: Type.Number() }),
  },
  { $id: 'AppliedSpec' },
);
export type AppliedSpec = Static<typeof AppliedSpec>;

/** D9: the buy-box record (open in the spec). Its `spec` is the canonical form (D11). */
export const BuyBoxRecord = OpenRecord(
  {
    id: Uuid(),
    name: Type.String(),
    description: Nullable(Type.String()),
    spec: AppliedSpec,
    spec_hash: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'Identity of the canonical spec (D11).' }),
    created_at: Timestamp(),
    updated_at: Timestamp(),
  },
  { $id: 'BuyBox' },
);
export type BuyBoxRecord = Static<typeof BuyBoxRecord>;

export const BuyBoxList = Type.Array(BuyBoxRecord, { description: 'The tenant\'s buy boxes.' });
export type BuyBoxList = Static<typeof BuyBoxList>;

/**
 * POST /v1/buyboxes/parse (D12): a draft to correct, not yet a valid spec — `markets` is empty
 * when the text names no market — and a warning per line it could not take.
 */
export const ParseBuyBoxResponse = Closed(
  {
    draft: Closed({
      markets: Type.Array(Type.String(), { maxItems: 1 }),
      must: Type.Array(Rule),
      preferred: Type.Array(PreferredRule),
      verdict_cutoffs: Cutoffs,
    }),
    warnings: Type.Array(Type.String(), { description: '`line N: …` for a line not understood, then whole-draft remarks.' }),
  },
  { $id: 'ParseBuyBoxResponse' },
);
export type ParseBuyBoxResponse = Static<typeof ParseBuyBoxResponse>;
