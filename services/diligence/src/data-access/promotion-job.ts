import { sql, type Transaction } from 'kysely';
import { diligenceSubject } from '@landscreen/events';
import type { DiligenceTransaction } from '../schema.js';
import { DEFAULT_STEPS } from './steps.js';
import { currentTraceparent } from '@landscreen/telemetry';

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
 * with its default steps and a `diligence.job.created` event in the outbox. The caller's
 * transaction is another service's (the pipeline's), of whatever tables it types.
 */
export async function ensurePromotionJob<Database>(trx: Transaction<Database>, input: PromotionJobInput): Promise<{ jobId: string; created: boolean }> {
  // One statement (one round trip) writes the job, its steps and its event — or, when the job
  // exists, nothing: the steps and the event select from the insert's (then empty) result. SQL
  // text, as the outbox relays are: it runs on another service's transaction (so it names its
  // schema), and its steps come from `unnest … with ordinality`, which the builder has no word for.
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
      insert into diligence.outbox (subject, traceparent, data)
      select ${diligenceSubject('job', 'created')}, ${currentTraceparent()}::text, jsonb_build_object(
        'job_id', job.id, 'tenant_id', ${input.tenantId}::uuid, 'tenant', ${input.tenantSlug}::text,
        'property_id', ${input.propertyId}::uuid, 'pipeline_item_id', ${input.pipelineItemId}::uuid, 'status', 'queued',
        -- as recordJobEvent (store/events.ts) writes every other job event's time: ISO 8601, UTC, ms
        'at', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'parcel_key', ${input.parcelKey}::text)
      from job
    )
    select id from job`.execute(trx);
  if (rows[0]) return { jobId: rows[0].id, created: true };
  const existing = await (trx.withSchema('diligence') as unknown as DiligenceTransaction)
    .selectFrom('jobs')
    .select('id')
    .where('tenant_id', '=', input.tenantId)
    .where('property_id', '=', input.propertyId)
    .executeTakeFirstOrThrow();
  return { jobId: existing.id, created: false };
}

/**
 * D20 for many properties at once (a lead import that puts its rows on the board): the jobs of
 * those without one, each with its default steps and its `diligence.job.created` event, in one
 * statement; a property that has a job already gets nothing new. Answers how many were created.
 */
export async function ensurePromotionJobs<Database>(trx: Transaction<Database>, inputs: PromotionJobInput[]): Promise<number> {
  if (inputs.length === 0) return 0;
  const rows = inputs.map((input) => ({
    tenant_id: input.tenantId,
    tenant_slug: input.tenantSlug,
    property_id: input.propertyId,
    pipeline_item_id: input.pipelineItemId,
    market_id: input.marketId,
    vintage_id: input.vintageId,
    parcel_key: input.parcelKey,
    parcel: input.parcel,
  }));
  // SQL text for the reasons ensurePromotionJob gives, and `jsonb_to_recordset`: the rows travel as
  // one parameter, whatever their number.
  const { rows: created } = await sql<{ count: number }>`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(
        tenant_id uuid, tenant_slug text, property_id uuid, pipeline_item_id uuid, market_id uuid, vintage_id uuid, parcel_key text, parcel jsonb)
    ), job as (
      insert into diligence.jobs (tenant_id, tenant_slug, property_id, pipeline_item_id, market_id, vintage_id, parcel_key, parcel)
      select tenant_id, tenant_slug, property_id, pipeline_item_id, market_id, vintage_id, parcel_key, parcel from input
      on conflict (tenant_id, property_id) do nothing
      returning id, tenant_id, tenant_slug, property_id, pipeline_item_id, parcel_key
    ), steps as (
      insert into diligence.steps (job_id, name, position)
      select job.id, step.name, step.position - 1
      from job cross join unnest(${[...DEFAULT_STEPS]}::text[]) with ordinality as step(name, position)
    ), event as (
      insert into diligence.outbox (subject, traceparent, data)
      select ${diligenceSubject('job', 'created')}, ${currentTraceparent()}::text, jsonb_build_object(
        'job_id', job.id, 'tenant_id', job.tenant_id, 'tenant', job.tenant_slug,
        'property_id', job.property_id, 'pipeline_item_id', job.pipeline_item_id, 'status', 'queued',
        'at', to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'parcel_key', job.parcel_key)
      from job
    )
    select count(*)::int as count from job`.execute(trx);
  return created[0]?.count ?? 0;
}
