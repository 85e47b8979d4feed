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
  return db
    .selectFrom('properties as p')
    .innerJoin('items as i', 'i.property_id', 'p.id')
    .innerJoin('buy_box_matches as m', (join) => join.onRef('m.property_id', '=', 'p.id').on('m.spec_hash', '=', specHash))
    .innerJoin('diligence.screen_statuses as s', (join) => join.onRef('s.tenant_id', '=', 'p.tenant_id').onRef('s.property_id', '=', 'p.id'))
    .select(['p.id as property_id', 'i.id as pipeline_item_id', 'm.id as buy_box_match_id', 's.job_id as diligence_job_id'])
    .where('p.tenant_id', '=', tenantId)
    .where('p.parcel_key', '=', parcelKey)
    .executeTakeFirst();
}
