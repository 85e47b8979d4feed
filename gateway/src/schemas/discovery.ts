import { Type } from '@sinclair/typebox';
import { DiscoveryDraft, BuyBoxName } from './buybox.js';
import { Closed, Nullable, OpenObject, Str, Uuid } from './common.js';

export const DiscoveryQueryRequest = Closed(
  {
    buy_box: Str(1, 255, { 'x-name': true, description: 'Name of a saved buy box.' }),
    draft: Type.Optional(Nullable(DiscoveryDraft, { description: 'A spec supplied by the caller instead of the saved one.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    cursor: Type.Optional(Nullable(Str(undefined, 4096), { description: 'Taken from next_cursor.' })),
  },
  { $id: 'DiscoveryQueryRequest' },
);

const MustEvidence = Type.Object({ field: Type.String(), value: Type.Unknown(), status: Type.Union([Type.Literal('pass'), Type.Literal('fail'), Type.Literal('unknown')]) });
const PreferredEvidence = Type.Object({ field: Type.String(), value: Type.Unknown(), weight: Type.Number(), contribution: Type.Number() });

export const DiscoveryResult = Type.Object(
  {
    parcel_key: Type.String(),
    apn: Nullable(Type.String()),
    address: Nullable(Type.String()),
    lat: Nullable(Type.Number()),
    lon: Nullable(Type.Number()),
    acres: Nullable(Type.Number()),
    developable_acres: Nullable(Type.Number()),
    geometry: Nullable(OpenObject()),
    bbox: Nullable(Type.Array(Type.Number())),
    facts: OpenObject(),
    provenance: OpenObject(),
    score: Type.Number(),
    verdict: Type.Union([Type.Literal('PURSUE'), Type.Literal('MONITOR'), Type.Literal('HOLD')]),
    review_required: Type.Boolean(),
    unknowns: Type.Array(Type.String()),
    score_breakdown: Type.Object({ must: Type.Array(MustEvidence), preferred: Type.Array(PreferredEvidence) }),
  },
  { $id: 'DiscoveryResult' },
);

export const DiscoveryQueryResponse = Closed(
  {
    market: Type.String(),
    market_id: Uuid(),
    vintage_id: Uuid(),
    query_hash: Type.String({ minLength: 64, maxLength: 64 }),
    applied_spec: DiscoveryDraft,
    denominator: Type.Integer(),
    preference_weight_total: Type.Number(),
    eligible_total: Type.Integer(),
    results: Type.Array(DiscoveryResult),
    next_cursor: Nullable(Type.String()),
  },
  { $id: 'DiscoveryQueryResponse' },
);

export const ParcelResolveRequest = Closed(
  {
    market: Str(1, 100),
    apn: Type.Optional(Nullable(Str(undefined, 255))),
    address: Type.Optional(Nullable(Str(undefined, 500))),
  },
  { $id: 'ParcelResolveRequest' },
);

export const ParcelCandidate = Type.Object(
  {
    market: Type.String(),
    vintage_id: Uuid(),
    parcel_key: Type.String(),
    apn: Nullable(Type.String()),
    address: Nullable(Type.String()),
    lat: Nullable(Type.Number()),
    lon: Nullable(Type.Number()),
    geometry: Nullable(OpenObject()),
    typed: OpenObject(),
    free_facts: OpenObject(),
    derived: OpenObject(),
    provenance: OpenObject(),
  },
  { $id: 'ParcelCandidate' },
);

export const ParcelResolveResponse = Type.Object(
  {
    status: Type.Union([Type.Literal('resolved'), Type.Literal('ambiguous'), Type.Literal('not_found')]),
    market: Type.String(),
    market_id: Uuid(),
    vintage_id: Uuid(),
    candidates: Type.Array(ParcelCandidate),
  },
  { $id: 'ParcelResolveResponse' },
);

export const PromoteRequest = Closed(
  {
    parcel_key: Str(1, 500),
    buy_box: BuyBoxName,
    query_hash: Str(64, 64),
    draft: Type.Optional(Nullable(DiscoveryDraft)),
  },
  { $id: 'PromoteRequest' },
);

export const DirectPromoteRequest = Closed(
  {
    parcel_key: Str(1, 500),
    buy_box: Str(1, 255, { 'x-name': true, description: 'Names a SAVED buy box.' }),
    vintage_id: Type.Optional(Nullable(Uuid({ description: 'The vintage the caller resolved the parcel against.' }))),
  },
  { $id: 'DirectPromoteRequest' },
);

export const PromoteResponse = Type.Object(
  {
    property_id: Uuid(),
    pipeline_item_id: Uuid(),
    buy_box_match_id: Uuid(),
    diligence_job_id: Uuid(),
    status: Type.String({ description: '`created` or `existing`.' }),
  },
  { $id: 'PromoteResponse' },
);
