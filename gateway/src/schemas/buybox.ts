import { Type } from '@sinclair/typebox';
import { DiscoveryDraft } from '@landscreen/api-schemas';
import { Nullable, OpenObject, Str } from './common.js';

// The spec shapes answer too (a saved buy box, a query's applied_spec): declared once, there.
export { Cutoffs, DiscoveryDraft, PreferredRule, Rule } from '@landscreen/api-schemas';

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

export { BuyBoxRecord } from '@landscreen/api-schemas';
