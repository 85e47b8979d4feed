import type { pipelinev1 } from '@landscreen/proto';

/** The PromoteResponse of D19: the four ids and `created` or `existing`. */
export function promotionJson(promotion: pipelinev1.Promotion) {
  return {
    property_id: promotion.propertyId,
    pipeline_item_id: promotion.pipelineItemId,
    buy_box_match_id: promotion.buyBoxMatchId,
    diligence_job_id: promotion.diligenceJobId,
    status: promotion.status,
  };
}
