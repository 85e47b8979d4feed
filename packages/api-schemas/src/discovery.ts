import { Type, type Static } from '@sinclair/typebox';
import { AppliedSpec } from './buyboxes.js';
import { Closed, Nullable, OneOf, OpenObject, Uuid } from './building-blocks.js';

export const VERDICTS = ['PURSUE', 'MONITOR', 'HOLD'] as const;
export const Verdict = OneOf(VERDICTS);

export const MustEvidence = Closed(
  { field: Type.String(), value: Type.Unknown(), status: OneOf(['pass', 'fail', 'unknown'] as const) },
  { $id: 'MustEvidence' },
);
export type MustEvidence = Static<typeof MustEvidence>;
export const PreferredEvidence = Closed(
  { field: Type.String(), value: Type.Unknown(), weight: Type.Number(), contribution: Type.Number() },
  { $id: 'PreferredEvidence' },
);
export type PreferredEvidence = Static<typeof PreferredEvidence>;

/** A GeoJSON geometry: an open object. */
const Geometry = Nullable(OpenObject({}, { description: 'GeoJSON geometry (WGS84).' }));

export const DiscoveryResult = Closed(
  {
    parcel_key: Type.String(),
    apn: Nullable(Type.String()),
    address: Nullable(Type.String()),
    lat: Nullable(Type.Number()),
    lon: Nullable(Type.Number()),
    acres: Nullable(Type.Number()),
    developable_acres: Nullable(Type.Number()),
    geometry: Geometry,
    bbox: Nullable(Type.Array(Type.Number())),
    facts: OpenObject(),
    provenance: OpenObject(),
    score: Type.Number(),
    verdict: Verdict,
    review_required: Type.Boolean(),
    unknowns: Type.Array(Type.String()),
    score_breakdown: Closed({ must: Type.Array(MustEvidence), preferred: Type.Array(PreferredEvidence) }),
  },
  { $id: 'DiscoveryResult' },
);
export type DiscoveryResult = Static<typeof DiscoveryResult>;

const QueryHash = Type.String({ minLength: 64, maxLength: 64, description: 'Identity of the query; promotion requires it.' });

export const DiscoveryQueryResponse = Closed(
  {
    market: Type.String(),
    market_id: Uuid(),
    vintage_id: Uuid({ description: 'The data vintage the results were read from.' }),
    query_hash: QueryHash,
    applied_spec: AppliedSpec,
    denominator: Type.Integer(),
    preference_weight_total: Type.Number(),
    eligible_total: Type.Integer(),
    results: Type.Array(DiscoveryResult),
    next_cursor: Nullable(Type.String(), { description: 'Null when no further page.' }),
  },
  { $id: 'DiscoveryQueryResponse' },
);
export type DiscoveryQueryResponse = Static<typeof DiscoveryQueryResponse>;

export const ParcelCandidate = Closed(
  {
    market: Type.String(),
    vintage_id: Uuid(),
    parcel_key: Type.String(),
    apn: Nullable(Type.String()),
    address: Nullable(Type.String()),
    lat: Nullable(Type.Number()),
    lon: Nullable(Type.Number()),
    geometry: Geometry,
    typed: OpenObject(),
    free_facts: OpenObject(),
    derived: OpenObject(),
    provenance: OpenObject(),
  },
  { $id: 'ParcelCandidate' },
);
export type ParcelCandidate = Static<typeof ParcelCandidate>;

/**
 * The parcel a property keeps, as it was when the property was made: a ParcelCandidate. A lead
 * delivered in bulk (the lead worker's lean resolution) is kept without its provenance.
 */
export const StoredParcel = Closed(
  { ...ParcelCandidate.properties, provenance: Type.Optional(ParcelCandidate.properties.provenance) },
  { $id: 'StoredParcel' },
);
export type StoredParcel = Static<typeof StoredParcel>;

export const ParcelResolveResponse = Closed(
  {
    status: OneOf(['resolved', 'ambiguous', 'not_found'] as const),
    market: Type.String(),
    market_id: Uuid(),
    vintage_id: Uuid(),
    candidates: Type.Array(ParcelCandidate),
  },
  { $id: 'ParcelResolveResponse' },
);
export type ParcelResolveResponse = Static<typeof ParcelResolveResponse>;

/** POST /v2/pipeline and /v2/pipeline/direct (D19). */
export const PromoteResponse = Closed(
  {
    property_id: Uuid(),
    pipeline_item_id: Uuid(),
    buy_box_match_id: Uuid(),
    diligence_job_id: Uuid(),
    status: OneOf(['created', 'existing'] as const, { description: '`existing` when every row was there already (idempotent).' }),
  },
  { $id: 'PromoteResponse' },
);
export type PromoteResponse = Static<typeof PromoteResponse>;

/** POST /v1/leads/find (D29): the live count and split; without count_only, the ranked rows too. */
export const LeadsFindResponse = Closed(
  {
    count: Type.Integer({ description: 'Parcels passing every must-have.' }),
    by_verdict: Closed({ PURSUE: Type.Integer(), MONITOR: Type.Integer(), HOLD: Type.Integer() }),
    rows: Type.Optional(
      Type.Array(
        Closed({
          parcel_key: Type.String(),
          apn: Nullable(Type.String()),
          address: Nullable(Type.String()),
          lat: Nullable(Type.Number()),
          lon: Nullable(Type.Number()),
          acres: Nullable(Type.Number()),
          score: Type.Number(),
          verdict: Verdict,
          review_required: Type.Boolean(),
          unknowns: Type.Array(Type.String()),
          facts: Type.Optional(OpenObject({}, { description: 'With `fields` only: the chosen facts, null when the parcel has none (D40).' })),
          provenance: Type.Optional(OpenObject({}, { description: 'With `fields` only: the provenance of the chosen facts.' })),
        }),
        { description: 'Absent with count_only; discovery\'s order, at most `limit`.' },
      ),
    ),
  },
  { $id: 'LeadsFindResponse' },
);
export type LeadsFindResponse = Static<typeof LeadsFindResponse>;
