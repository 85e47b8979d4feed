import { sql, type Kysely } from 'kysely';
import { diligenceSubject } from '@landscreen/events';
import { recordEvent } from './outbox.js';
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
}

/**
 * D20: the diligence job of a promoted property, written inside the promotion's transaction (the
 * one write into this schema from outside the diligence service). One job per property: a
 * repeated or concurrent promotion gets the existing job back and writes nothing. A new job comes
 * with its default steps and a `diligence.job.created` event in the outbox.
 */
export async function ensurePromotionJob(trx: Kysely<any>, input: PromotionJobInput): Promise<{ jobId: string; created: boolean }> {
  const inserted = await trx
    .withSchema('diligence')
    .insertInto('jobs')
    .values({
      tenant_id: input.tenantId,
      property_id: input.propertyId,
      pipeline_item_id: input.pipelineItemId,
      market_id: input.marketId,
      vintage_id: input.vintageId,
      parcel_key: input.parcelKey,
    })
    .onConflict((conflict) => conflict.columns(['tenant_id', 'property_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) {
    const existing = await trx
      .withSchema('diligence')
      .selectFrom('jobs')
      .select('id')
      .where('tenant_id', '=', input.tenantId)
      .where('property_id', '=', input.propertyId)
      .executeTakeFirstOrThrow();
    return { jobId: existing.id as string, created: false };
  }
  const jobId = inserted.id as string;
  await trx
    .withSchema('diligence')
    .insertInto('steps')
    .values(DEFAULT_STEPS.map((name, position) => ({ job_id: jobId, name, position })))
    .execute();
  await recordEvent(trx, diligenceSubject('job', 'created'), {
    job_id: jobId,
    tenant_id: input.tenantId,
    tenant: input.tenantSlug,
    property_id: input.propertyId,
    pipeline_item_id: input.pipelineItemId,
    parcel_key: input.parcelKey,
  });
  return { jobId, created: true };
}

export interface PropertyJob {
  id: string;
  status: string;
}

/** D21: the job of each property, for the pipeline items that mirror its status as `screen_status`. */
export async function jobsOfProperties(db: Kysely<any>, tenantId: string, propertyIds: string[]): Promise<Map<string, PropertyJob>> {
  if (propertyIds.length === 0) return new Map();
  const rows = await db
    .withSchema('diligence')
    .selectFrom('jobs')
    .select(['id', 'status', 'property_id'])
    .where('tenant_id', '=', tenantId)
    .where(sql<boolean>`property_id = any(${propertyIds}::uuid[])`)
    .execute();
  return new Map(rows.map((row) => [row.property_id as string, { id: row.id as string, status: row.status as string }]));
}
