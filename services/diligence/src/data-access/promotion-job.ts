import { sql, type Kysely } from 'kysely';
import { diligenceSubject } from '@landscreen/events';
import { DEFAULT_STEPS } from './steps.js';

export interface PromotionJobInput {
  tenantId: string;
  /** Carried in the event so a worker can address the tenant's API (X-Tenant) without a lookup. */
  tenantSlug: string;
  propertyId: string;
  pipelineItemId: string;
  marketId: string;
  vintageId: string;
  parcelKey: string;
  /** The parcel as promoted (a ParcelCandidate), kept with the job for the steps that read it. */
  parcel: unknown;
}

/**
 * D20: the diligence job of a promoted property, written inside the promotion's transaction (the
 * one write into this schema from outside the diligence service). One job per property: a
 * repeated or concurrent promotion gets the existing job back and writes nothing. A new job comes
 * with its default steps and a `diligence.job.created` event in the outbox.
 */
export async function ensurePromotionJob(trx: Kysely<any>, input: PromotionJobInput): Promise<{ jobId: string; created: boolean }> {
  // One statement (one round trip) writes the job, its steps and its event — or, when the job
  // exists, nothing: the steps and the event select from the insert's (then empty) result.
  const { rows } = await sql<{ id: string }>`
    with job as (
      insert into diligence.jobs (tenant_id, tenant_slug, property_id, pipeline_item_id, market_id, vintage_id, parcel_key, parcel)
      values (${input.tenantId}, ${input.tenantSlug}, ${input.propertyId}, ${input.pipelineItemId}, ${input.marketId},
              ${input.vintageId}, ${input.parcelKey}, ${JSON.stringify(input.parcel)})
      on conflict (tenant_id, property_id) do nothing
      returning id
    ), steps as (
      insert into diligence.steps (job_id, name, position)
      select job.id, step.name, step.position - 1
      from job cross join unnest(${[...DEFAULT_STEPS]}::text[]) with ordinality as step(name, position)
    ), event as (
      insert into diligence.outbox (subject, data)
      select ${diligenceSubject('job', 'created')}, jsonb_build_object(
        'job_id', job.id, 'tenant_id', ${input.tenantId}::uuid, 'tenant', ${input.tenantSlug}::text,
        'property_id', ${input.propertyId}::uuid, 'pipeline_item_id', ${input.pipelineItemId}::uuid, 'status', 'queued',
        -- as recordJobEvent (store/events.ts) writes every other job event's time: ISO 8601, UTC, ms
        'at', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'parcel_key', ${input.parcelKey}::text)
      from job
    )
    select id from job`.execute(trx);
  if (rows[0]) return { jobId: rows[0].id, created: true };
  const existing = await trx
    .withSchema('diligence')
    .selectFrom('jobs')
    .select('id')
    .where('tenant_id', '=', input.tenantId)
    .where('property_id', '=', input.propertyId)
    .executeTakeFirstOrThrow();
  return { jobId: existing.id as string, created: false };
}
