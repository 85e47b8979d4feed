import { sql } from 'kysely';
import { PREPARED } from '@landscreen/db';
import { diligenceSubject } from '@landscreen/events';
import { JOB_VIEW_COLUMNS, type JobViewRow } from '../views/job-view.js';
import type { DiligenceDb } from '../schema.js';
import type { JobRow, StepRow } from './jobs.js';

export interface ClaimFields {
  claimToken: string;
  workerId: string;
  leaseExpiresAt: Date;
}

const STEP_DATES = ['started_at', 'completed_at'] as const;

/** What the answer shows of the job: not its parcel, which a claim would only parse and drop. */
const RETURNED = sql.raw(JOB_VIEW_COLUMNS.join(', '));

/**
 * D23 in one statement, for the common case of a claim: an authorized job becomes running under a
 * new claim, its `diligence.job.claimed` event is written, and the job comes back with its steps,
 * in one round trip and one implicit transaction (the handler's locking path took six: begin, lock,
 * update, event, steps, commit — most of a claim's time in bench:diligence).
 *
 * No double claims: the conditional update takes the row lock itself. A concurrent claimer of the
 * same job waits on that lock and, under READ COMMITTED, re-checks `status = 'authorized'` against
 * the row the first one committed, which is running by then: it updates nothing and answers
 * undefined, as does an unknown, foreign, queued, running or finished job. The caller then takes
 * the locking path, which works out the refusal (or the re-claim of an expired lease, whose event
 * also names the worker it replaced) exactly as before.
 *
 * The event's payload must stay the one `recordJobEvent` (store/events.ts) writes for a claim;
 * test/e2e/diligence-claim-statement.test.ts compares the two.
 */
export async function claimAuthorized(db: DiligenceDb, tenantId: string, jobId: string, claim: ClaimFields, now: Date): Promise<{ job: JobViewRow; steps: StepRow[] } | undefined> {
  const extra = { at: now.toISOString(), worker_id: claim.workerId, lease_expires_at: claim.leaseExpiresAt.toISOString() };
  // Prepared: the text is fixed (every input a parameter), so each connection plans it once.
  const { rows } = await sql<JobViewRow & { steps_json: (Omit<StepRow, 'started_at' | 'completed_at'> & Record<(typeof STEP_DATES)[number], string | null>)[] }>`${PREPARED}
    with claimed as (
      update diligence.jobs
      set status = 'running', claim_token = ${claim.claimToken}, claimed_by = ${claim.workerId}, lease_expires_at = ${claim.leaseExpiresAt}, updated_at = ${now}
      where id = ${jobId} and tenant_id = ${tenantId} and status = 'authorized'
      returning tenant_id, tenant_slug, ${RETURNED}
    ), event as (
      insert into diligence.outbox (subject, data)
      select ${diligenceSubject('job', 'claimed')}, jsonb_build_object(
        'job_id', id, 'tenant_id', tenant_id, 'tenant', tenant_slug, 'property_id', property_id,
        'pipeline_item_id', pipeline_item_id, 'status', status) || ${JSON.stringify(extra)}::jsonb
      from claimed
    )
    select ${RETURNED}, (
      -- json, not jsonb (nothing here is searched, and building jsonb cost the backend more);
      -- money stays a decimal string (as the driver gives numeric columns), not a JSON number.
      select coalesce(json_agg(json_build_object(
        'job_id', s.job_id, 'name', s.name, 'position', s.position, 'status', s.status, 'attempts', s.attempts,
        'claim_token', s.claim_token, 'provider', s.provider, 'provider_version', s.provider_version,
        'provider_request_id', s.provider_request_id, 'data', s.data, 'citations', s.citations,
        'cost_usd', s.cost_usd::text, 'error_code', s.error_code, 'error_message', s.error_message,
        'started_at', s.started_at, 'completed_at', s.completed_at) order by s.position), '[]')
      from diligence.steps s where s.job_id = claimed.id
    ) as steps_json
    from claimed`.execute(db);
  const row = rows[0];
  if (!row) return undefined;
  const { steps_json: stepsJson, ...job } = row;
  // JSON carries timestamps as text; the rest of the service reads them as Dates.
  const steps = stepsJson.map((step) => ({
    ...step,
    started_at: step.started_at === null ? null : new Date(step.started_at),
    completed_at: step.completed_at === null ? null : new Date(step.completed_at),
  })) as StepRow[];
  return { job: job as JobViewRow, steps };
}

export type ClaimState = Pick<JobRow, 'status' | 'lease_expires_at'>;

/**
 * What a claim that found nothing to take needs to know to refuse (D23): the job's status and
 * lease as committed now, or undefined for an unknown or another tenant's job. Prepared and narrow
 * (not the parcel), since every claim that loses a race reads it.
 */
export async function readClaimState(db: DiligenceDb, tenantId: string, jobId: string): Promise<ClaimState | undefined> {
  const { rows } = await sql<ClaimState>`${PREPARED}
    select status, lease_expires_at from diligence.jobs where id = ${jobId} and tenant_id = ${tenantId}`.execute(db);
  return rows[0];
}
