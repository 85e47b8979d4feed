import { absentIfNull, jsonBytes } from '@landscreen/rpc';
import type { diligencev1 } from '@landscreen/proto';
import { isRefusal, moveJob } from '../state-machine.js';
import { leaseExpired } from '../store/claim.js';
import type { JobRow, StepRow } from '../store/jobs.js';

/** The job columns a view shows (a claim reads back only these, not the parcel it carries). */
export const JOB_VIEW_COLUMNS = [
  'id', 'status', 'property_id', 'pipeline_item_id', 'market_id', 'vintage_id', 'parcel_key', 'max_cost_usd', 'cost_usd',
  'authorize_note', 'authorized_at', 'claimed_by', 'lease_expires_at', 'created_at', 'updated_at',
] as const satisfies readonly (keyof JobRow)[];

export type JobViewRow = Pick<JobRow, (typeof JOB_VIEW_COLUMNS)[number]>;

const EMPTY = new Uint8Array(0);

/** A time as every answer prints it (RFC 3339, UTC, milliseconds); absent when null. */
export const isoTime = (value: Date) => new Date(value).toISOString();
const optionalTime = (value: Date | null) => (value === null ? undefined : isoTime(value));

/**
 * The citations stored with a step (a JSON array of open objects) as the bytes a message carries:
 * none, the common case, is empty bytes rather than "[]".
 */
export const citationsBytes = (citations: unknown): Uint8Array =>
  citations === null || citations === undefined || (Array.isArray(citations) && citations.length === 0) ? EMPTY : jsonBytes(citations);

/**
 * A job as the internal API shows it: everything a worker or an operator needs, money as decimal
 * strings. The claim token itself is shown only to the claimer, in the claim's answer. Built as a
 * plain message (`$typeName` and every field set), never through protobuf reflection: a claim
 * answers one (D23's hot path).
 */
export function jobView(job: JobViewRow, steps: StepRow[], now: Date): diligencev1.Job {
  const own: diligencev1.Step[] = [];
  for (const step of steps) if (step.job_id === job.id) own.push(stepView(step));
  return {
    $typeName: 'landscreen.diligence.v1.Job',
    id: job.id,
    status: job.status,
    propertyId: job.property_id,
    pipelineItemId: job.pipeline_item_id,
    marketId: job.market_id,
    vintageId: job.vintage_id,
    parcelKey: job.parcel_key,
    maxCostUsd: absentIfNull(job.max_cost_usd),
    costUsd: job.cost_usd,
    note: absentIfNull(job.authorize_note),
    authorizedAt: optionalTime(job.authorized_at),
    claimedBy: absentIfNull(job.claimed_by),
    leaseExpiresAt: optionalTime(job.lease_expires_at),
    // What the state machine says a claim would do now: authorized, or running on an expired lease (D23).
    claimable: !isRefusal(moveJob('claim', job.status, { leaseExpired: leaseExpired(job, now) })),
    createdAt: isoTime(job.created_at),
    updatedAt: isoTime(job.updated_at),
    steps: own,
  };
}

function stepView(step: StepRow): diligencev1.Step {
  return {
    $typeName: 'landscreen.diligence.v1.Step',
    name: step.name,
    position: step.position,
    status: step.status,
    attempts: step.attempts,
    provider: absentIfNull(step.provider),
    providerVersion: absentIfNull(step.provider_version),
    providerRequestId: absentIfNull(step.provider_request_id),
    dataJson: step.data === null || step.data === undefined ? undefined : jsonBytes(step.data),
    citationsJson: citationsBytes(step.citations),
    costUsd: step.cost_usd,
    error: step.error_code === null ? undefined : { $typeName: 'landscreen.diligence.v1.StepError', code: step.error_code, message: absentIfNull(step.error_message) },
    startedAt: optionalTime(step.started_at),
    completedAt: optionalTime(step.completed_at),
  };
}
