import { sql } from 'kysely';
import type { PipelineDb } from '../schema.js';

export interface PromotionIds {
  property_id: string;
  pipeline_item_id: string;
  buy_box_match_id: string;
  diligence_job_id: string;
}

/**
 * The four ids of a promotion that was made before (the property, its card, its match for this
 * spec and its job), read in one query; undefined when any is missing. A repeated promotion is
 * answered from this without a transaction or a write.
 */
export async function existingPromotion(db: PipelineDb, tenantId: string, parcelKey: string, specHash: string): Promise<PromotionIds | undefined> {
  const { rows } = await sql<PromotionIds>`
    select p.id as property_id, i.id as pipeline_item_id, m.id as buy_box_match_id, s.job_id as diligence_job_id
    from pipeline.properties p
    join pipeline.items i on i.property_id = p.id
    join pipeline.buy_box_matches m on m.property_id = p.id and m.spec_hash = ${specHash}
    join diligence.screen_statuses s on s.tenant_id = p.tenant_id and s.property_id = p.id
    where p.tenant_id = ${tenantId} and p.parcel_key = ${parcelKey}`.execute(db);
  return rows[0];
}
