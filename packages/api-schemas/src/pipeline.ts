import { Type, type Static } from '@sinclair/typebox';
import { AppliedSpec } from './buyboxes.js';
import { Closed, Nullable, OneOf, OpenRecord, Timestamp, Uuid } from './building-blocks.js';
import { Contact, JobStatusValue, PropertyDiligence } from './diligence.js';
import { DiscoveryResult, MustEvidence, StoredParcel, Verdict } from './discovery.js';

/** D18: stages in board order. */
export const STAGES = ['new', 'researching', 'contacted', 'negotiating', 'under_contract', 'closed', 'archived'] as const;
export const Stage = OneOf(STAGES);

/** A pipeline item (open in the spec): its card, place, screen status and joined property. */
export const PipelineItem = OpenRecord(
  {
    position: Type.Integer({ minimum: 0, description: '0-based place within its stage (D18).' }),
    screen_status: Nullable(JobStatusValue, { description: 'The status of the property\'s diligence job (D21); null without one.' }),
    diligence_job_id: Nullable(Uuid()),
    id: Uuid(),
    property_id: Uuid(),
    stage: Stage,
    archived: Type.Boolean(),
    notes: Nullable(Type.String()),
    created_at: Timestamp(),
    updated_at: Timestamp(),
    property: Closed({
      id: Uuid(),
      market: Type.String(),
      parcel_key: Type.String(),
      apn: Nullable(Type.String()),
      address: Nullable(Type.String()),
      lat: Nullable(Type.Number()),
      lon: Nullable(Type.Number()),
      acres: Nullable(Type.Number()),
      buy_box: Nullable(Type.String(), { description: 'The buy box of the latest screen.' }),
      verdict: Nullable(Verdict),
      score: Nullable(Type.Number()),
    }),
  },
  { $id: 'PipelineItem' },
);
export type PipelineItem = Static<typeof PipelineItem>;

export const PipelineBoard = Closed(
  { items: Type.Array(PipelineItem, { description: 'By stage, then position.' }), total: Type.Integer() },
  { $id: 'PipelineBoard' },
);
export type PipelineBoard = Static<typeof PipelineBoard>;

const screenSummary = {
  buy_box_match_id: Uuid(),
  buy_box: Type.String(),
  buy_box_id: Uuid(),
  spec_hash: Type.String(),
  query_hash: Type.String(),
  vintage_id: Uuid(),
  source: OneOf(['ranked', 'direct'] as const, { description: 'A ranked promotion or a direct screen (D19).' }),
  verdict: Verdict,
  score: Type.Number(),
  eligible: Type.Boolean(),
  failed: Type.Array(MustEvidence, { description: 'The failed must-have evidence (a direct screen keeps it).' }),
  screened_at: Timestamp(),
};

/**
 * A buy-box match's evaluation as stored: the DiscoveryResult of a promotion; an imported or
 * delivered lead's is stored without geometry and bbox (the property keeps them), and a lean one
 * (bulk delivery) without facts and provenance too.
 */
export const StoredEvaluation = Closed(
  {
    ...DiscoveryResult.properties,
    geometry: Type.Optional(DiscoveryResult.properties.geometry),
    bbox: Type.Optional(DiscoveryResult.properties.bbox),
    facts: Type.Optional(DiscoveryResult.properties.facts),
    provenance: Type.Optional(DiscoveryResult.properties.provenance),
  },
  { $id: 'StoredEvaluation' },
);
export type StoredEvaluation = Static<typeof StoredEvaluation>;

/** One buy-box match of a property, as listed on it. */
export const BuyBoxMatchSummary = Closed(screenSummary, { $id: 'BuyBoxMatchSummary' });

/** The deep screen stored at promotion: the match with its applied spec and its evaluation. */
export const DeepScreen = Closed(
  { ...screenSummary, applied_spec: AppliedSpec, evaluation: StoredEvaluation },
  { $id: 'DeepScreen' },
);
export type DeepScreen = Static<typeof DeepScreen>;
export type BuyBoxMatchSummary = Static<typeof BuyBoxMatchSummary>;

/** GET /v1/properties/{property_id} (D28): reads only — no provider call, no job advanced. */
export const PropertyPage = Closed(
  {
    property: OpenRecord({
      id: Uuid(),
      market: Type.String(),
      market_id: Uuid(),
      parcel_key: Type.String(),
      vintage_id: Uuid(),
      apn: Nullable(Type.String()),
      address: Nullable(Type.String()),
      lat: Nullable(Type.Number()),
      lon: Nullable(Type.Number()),
      acres: Nullable(Type.Number()),
      parcel: StoredParcel,
      created_at: Timestamp(),
      pipeline_item: Nullable(PipelineItem),
      buy_box_matches: Type.Array(BuyBoxMatchSummary, { description: 'Newest first.' }),
    }),
    deep_screen: Nullable(DeepScreen, { description: 'The latest buy-box match in full; null when the property was never screened.' }),
    contacts: Type.Array(Contact),
    diligence: Nullable(PropertyDiligence),
  },
  { $id: 'PropertyPage' },
);
export type PropertyPage = Static<typeof PropertyPage>;
