import { Type } from '@sinclair/typebox';
import { Closed, Nullable, OpenObject, Str } from './common.js';

const ruleFields = {
  field: Str(1, 100, { description: 'A fact of the parcel: typed, free or derived (D13).' }),
  op: Str(1, 20, { description: 'eq ne lt lte gt gte in not_in between contains exists, or = == != < <= > >= (D10).' }),
  value: Type.Unknown({ description: 'Any JSON; its shape depends on the op (D10).' }),
};

export const Rule = Closed(
  {
    ...ruleFields,
    unknown: Type.Optional(
      Nullable(Type.Union([Type.Literal('exclude'), Type.Literal('review')]), {
        description: 'Policy when the fact is unknown (D14); default exclude.',
      }),
    ),
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

export const PreferredRule = Closed(
  { ...ruleFields, weight: Bounded('What the rule adds to the score when it passes (D14).') },
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

/** Compared, stored and looked up in NFC, trimmed; invisible characters refused (`x-name`). */
export const BuyBoxName = Str(1, 255, { 'x-name': true });

export const CreateBuyBoxBody = OpenObject(
  {
    name: BuyBoxName,
    description: Type.Optional(Nullable(Str(undefined, 2000))),
    spec: DiscoveryDraft,
  },
  { description: 'D9: a named buy box. Names are unique per tenant.' },
);

export const ReplaceBuyBoxBody = OpenObject(
  {
    spec: DiscoveryDraft,
    description: Type.Optional(Nullable(Str(undefined, 2000))),
  },
  { description: 'D9: replaces the spec (and optionally the description) of an existing box.' },
);

export const ParseBuyBoxBody = OpenObject(
  { text: Str(1, 20000, { description: 'The line-oriented buy-box language of D12.' }) },
);

export const BuyBoxRecord = OpenObject(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    description: Nullable(Type.String()),
    spec: DiscoveryDraft,
    spec_hash: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'BuyBox' },
);
