import { isRefusal, moveJob } from '../state-machine.js';
import { leaseExpired } from '../store/claim.js';
import type { JobRow, StepRow } from '../store/jobs.js';

/** The job columns a view shows (a claim reads back only these, not the parcel it carries). */
export const JOB_VIEW_COLUMNS = [
  'id', 'status', 'property_id', 'pipeline_item_id', 'market_id', 'vintage_id', 'parcel_key', 'max_cost_usd', 'cost_usd',
  'authorize_note', 'authorized_at', 'claimed_by', 'lease_expires_at', 'created_at', 'updated_at',
] as const satisfies readonly (keyof JobRow)[];

export type JobViewRow = Pick<JobRow, (typeof JOB_VIEW_COLUMNS)[number]>;

const iso = (value: Date | null) => (value === null ? null : new Date(value).toISOString());

/**
 * A job as the internal API shows it: everything a worker or an operator needs, money as decimal
 * strings. The claim token itself is shown only to the claimer, in the claim's answer.
 */
export function jobView(job: JobViewRow, steps: StepRow[], now: Date) {
  return {
    id: job.id,
    status: job.status,
    property_id: job.property_id,
    pipeline_item_id: job.pipeline_item_id,
    market_id: job.market_id,
    vintage_id: job.vintage_id,
    parcel_key: job.parcel_key,
    max_cost_usd: job.max_cost_usd,
    cost_usd: job.cost_usd,
    note: job.authorize_note,
    authorized_at: iso(job.authorized_at),
    claimed_by: job.claimed_by,
    lease_expires_at: iso(job.lease_expires_at),
    // What the state machine says a claim would do now: authorized, or running on an expired lease (D23).
    claimable: !isRefusal(moveJob('claim', job.status, { leaseExpired: leaseExpired(job, now) })),
    created_at: iso(job.created_at),
    updated_at: iso(job.updated_at),
    steps: steps.filter((step) => step.job_id === job.id).map(stepView),
  };
}

function stepView(step: StepRow) {
  return {
    name: step.name,
    position: step.position,
    status: step.status,
    attempts: step.attempts,
    provider: step.provider,
    provider_version: step.provider_version,
    provider_request_id: step.provider_request_id,
    data: step.data ?? null,
    citations: step.citations ?? [],
    cost_usd: step.cost_usd,
    error: step.error_code === null ? null : { code: step.error_code, message: step.error_message },
    started_at: iso(step.started_at),
    completed_at: iso(step.completed_at),
  };
}
