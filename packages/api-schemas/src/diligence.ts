import { Type, type Static } from '@sinclair/typebox';
import { Closed, DecimalString, Nullable, OneOf, OpenObject, OpenRecord, Timestamp, Uuid } from './building-blocks.js';
import { StoredParcel } from './discovery.js';

/** D21/D22 job statuses. */
export const JOB_STATUSES = ['queued', 'authorized', 'running', 'ready', 'partial', 'needs_review', 'failed'] as const;
export const JobStatusValue = OneOf(JOB_STATUSES);
export const STEP_STATUSES = ['pending', 'running', 'ready', 'partial', 'needs_review', 'failed'] as const;
export const StepStatusValue = OneOf(STEP_STATUSES);

/** A step as the internal API shows it: the provider's raw result and its cost included. */
export const DiligenceStep = Closed(
  {
    name: Type.String({ description: 'parcel_record, point_data, hosting_capacity, utility_findings, owner_contact, report…' }),
    position: Type.Integer(),
    status: StepStatusValue,
    attempts: Type.Integer({ minimum: 0 }),
    provider: Nullable(Type.String()),
    provider_version: Nullable(Type.String()),
    provider_request_id: Nullable(Type.String()),
    data: Nullable(OpenObject({}, { description: 'The provider\'s result: an open object.' })),
    citations: Type.Array(OpenObject()),
    cost_usd: DecimalString(),
    error: Nullable(Closed({ code: Type.String(), message: Nullable(Type.String()) })),
    started_at: Nullable(Timestamp()),
    completed_at: Nullable(Timestamp()),
  },
  { $id: 'DiligenceStep' },
);
export type DiligenceStep = Static<typeof DiligenceStep>;

const jobFields = {
  id: Uuid(),
  status: JobStatusValue,
  property_id: Uuid(),
  pipeline_item_id: Uuid(),
  market_id: Uuid(),
  vintage_id: Uuid(),
  parcel_key: Type.String(),
  max_cost_usd: Nullable(DecimalString(), { description: 'The authorized budget; null until authorized.' }),
  cost_usd: DecimalString({ description: 'Spent so far.' }),
  note: Nullable(Type.String(), { description: 'The authorization note.' }),
  authorized_at: Nullable(Timestamp()),
  claimed_by: Nullable(Type.String()),
  lease_expires_at: Nullable(Timestamp()),
  claimable: Type.Boolean({ description: 'Whether a claim would succeed now (authorized, or running on an expired lease, D23).' }),
  created_at: Timestamp(),
  updated_at: Timestamp(),
  steps: Type.Array(DiligenceStep, { description: 'In step order.' }),
};

/** A diligence job (open in the spec), money as decimal strings; the claim token is never shown here. */
export const DiligenceJob = OpenRecord(jobFields, { $id: 'DiligenceJob' });
export type DiligenceJob = Static<typeof DiligenceJob>;

/** A contact as customers see it (D28): who and from where, never its cost. */
export const Contact = Closed(
  { id: Uuid(), contact: OpenObject({}, { description: 'What the provider found: an open object.' }), provider: Type.String(), created_at: Timestamp() },
  { $id: 'Contact' },
);
export type Contact = Static<typeof Contact>;

/** GET …/jobs/{job_id}: the job and what a worker's steps work from. */
export const DiligenceJobDetail = OpenRecord(
  {
    ...jobFields,
    parcel: Nullable(StoredParcel, { description: 'The parcel as promoted (a ParcelCandidate).' }),
    contacts: Type.Array(Contact),
  },
  { $id: 'DiligenceJobDetail' },
);
export type DiligenceJobDetail = Static<typeof DiligenceJobDetail>;

export const DiligenceJobList = Closed(
  { jobs: Type.Array(DiligenceJob, { description: 'Oldest first.' }), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() },
  { $id: 'DiligenceJobList' },
);
export type DiligenceJobList = Static<typeof DiligenceJobList>;

/** POST …/claim (D23): the token is shown to the claimer only, here. */
export const ClaimResponse = Closed(
  { claim_token: Uuid(), lease_expires_at: Timestamp(), job: DiligenceJob },
  { $id: 'ClaimResponse' },
);
export type ClaimResponse = Static<typeof ClaimResponse>;

/** GET …/spend (D26): every ledger row of the tenant in [day, day+1) UTC. */
export const SpendResponse = Closed(
  {
    day: Type.String({ format: 'date' }),
    total_usd: DecimalString(),
    rows: Type.Integer(),
    by_provider: Type.Record(Type.String(), DecimalString()),
  },
  { $id: 'SpendResponse' },
);
export type SpendResponse = Static<typeof SpendResponse>;

/** The customer-readable diligence of a property (D28): no raw payload, cost, budget or worker. */
export const PropertyDiligence = Closed(
  {
    job_id: Uuid(),
    status: JobStatusValue,
    updated_at: Timestamp(),
    steps: Type.Array(
      Closed({
        name: Type.String(),
        status: StepStatusValue,
        summary: Type.String(),
        citations: Type.Array(OpenObject()),
        completed_at: Nullable(Timestamp()),
      }),
    ),
  },
  { $id: 'PropertyDiligence' },
);
export type PropertyDiligence = Static<typeof PropertyDiligence>;

/** POST /v1/properties/{property_id}/reveal (legacy, D28): the contact and the ledger row paying for it. */
export const RevealResponse = Closed(
  {
    contact: Closed({ ...Contact.properties, property_id: Uuid(), provider_request_id: Nullable(Type.String()) }),
    ledger: Nullable(
      Closed({
        id: Uuid(),
        job_id: Nullable(Uuid()),
        provider: Type.String(),
        provider_request_id: Nullable(Type.String()),
        amount_usd: DecimalString(),
        recorded_at: Timestamp(),
      }),
    ),
  },
  { $id: 'RevealResponse' },
);
export type RevealResponse = Static<typeof RevealResponse>;
