import { Type, type Static } from '@sinclair/typebox';
import { Closed, Uuid } from './building-blocks.js';
import { DiscoveryResult, MustEvidence } from './discovery.js';

/**
 * GET /v2/parcels/{parcel_key}/evaluation: one parcel of the buy box's market evaluated against
 * it, eligible or not — the evidence a map click shows (D40's console).
 */
export const ParcelEvaluation = Closed(
  {
    market: Type.String(),
    vintage_id: Uuid(),
    query_hash: Type.String({ minLength: 64, maxLength: 64, description: 'The ranking the parcel was evaluated in; promotion requires it.' }),
    buy_box: Type.String(),
    eligible: Type.Boolean({ description: 'False when a must-have fails (or is unknown under policy exclude).' }),
    result: DiscoveryResult,
    failed: Type.Array(MustEvidence, { description: 'The must evidence that made the parcel ineligible.' }),
  },
  { $id: 'ParcelEvaluation' },
);
export type ParcelEvaluation = Static<typeof ParcelEvaluation>;
