import type { Kysely } from 'kysely';
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
  const inserted = await trx
    .withSchema('diligence')
    .insertInto('jobs')
    .values({
      tenant_id: input.tenantId,
      tenant_slug: input.tenantSlug,
      property_id: input.propertyId,
      pipeline_item_id: input.pipelineItemId,
      market_id: input.marketId,
      vintage_id: input.vintageId,
      parcel_key: input.parcelKey,
      parcel: JSON.stringify(input.parcel),
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
