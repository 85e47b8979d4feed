import type { HandlerContext } from '@connectrpc/connect';
import type { JsonObject } from '@bufbuild/protobuf';
import { ensurePromotionJob } from '@landscreen/diligence-service/data-access';
import { type discoveryv1, type pipelinev1 } from '@landscreen/proto';
import * as discoveryjson from '@landscreen/discovery-json';
import { conflict, onBehalfOf, requireCaller, type Caller } from '@landscreen/rpc';
import type { PipelineContext } from '../context.js';
import { ensureMatch } from '../matches/match-rows.js';
import { ensureItem, ensureProperty } from './ensure-rows.js';
import { existingPromotion, type PromotionIds } from './existing.js';

/** The PromoteResponse of D19 as its message: the four ids and whether this call wrote any. */
const promotionMessage = (ids: PromotionIds, status: 'created' | 'existing'): pipelinev1.Promotion => ({
  $typeName: 'landscreen.pipeline.v1.Promotion',
  propertyId: ids.property_id,
  pipelineItemId: ids.pipeline_item_id,
  buyBoxMatchId: ids.buy_box_match_id,
  diligenceJobId: ids.diligence_job_id,
  status,
});

/**
 * D19, the pipeline half of a promotion. Discovery has checked the buy box, entitlement and
 * vintage and evaluated the parcel; a ranked promotion refuses a must failure, a direct screen
 * keeps it (its verdict is HOLD, its failed evidence stored). Then ONE transaction writes the
 * property, the buy-box match, the item and — through the diligence package (D20) — the job with
 * its outbox event. Nothing calls a provider, contacts anyone or writes to the ledger.
 */
export async function promote(context: PipelineContext, caller: Caller, evaluated: discoveryv1.EvaluateParcelResponse, source: 'ranked' | 'direct') {
  // What is stored is the JSON of discovery's messages (the property's parcel, the match's evaluation).
  const result = discoveryjson.discoveryResultValue(evaluated.result!, { geometry: true });
  const failed = discoveryjson.mustEvidenceValues(evaluated.failed);
  const parcel = discoveryjson.parcelCandidateValue(evaluated.parcel!);
  if (source === 'ranked' && !evaluated.eligible) {
    throw conflict('must_failed', 'The parcel fails a must-have of this buy box.', { failed: failed as JsonObject[], parcel_key: result.parcel_key });
  }
  const before = await existingPromotion(context.db, caller.tenantId, result.parcel_key, evaluated.specHash);
  if (before) return { promotion: promotionMessage(before, 'existing') };
  const promotion = await context.db.transaction().execute(async (trx) => {
    const property = await ensureProperty(trx, {
      tenantId: caller.tenantId,
      marketId: evaluated.marketId,
      market: evaluated.market,
      vintageId: evaluated.vintageId,
      parcelKey: result.parcel_key,
      apn: result.apn,
      address: result.address,
      lat: result.lat,
      lon: result.lon,
      acres: result.acres,
      parcel,
    });
    const match = await ensureMatch(trx, caller.tenantId, {
      propertyId: property.id,
      buyBoxId: evaluated.buyBoxId,
      buyBox: evaluated.buyBox,
      specHash: evaluated.specHash,
      queryHash: evaluated.queryHash,
      vintageId: evaluated.vintageId,
      source,
      verdict: result.verdict,
      score: result.score,
      eligible: evaluated.eligible,
      appliedSpec: discoveryjson.buyBoxSpecValue(evaluated.appliedSpec),
      evaluation: result,
      failed,
    });
    const item = await ensureItem(trx, caller.tenantId, property.id, {
      verdict: { buyBox: evaluated.buyBox, verdict: result.verdict, score: result.score },
      verdictChanged: match.created,
      at: context.clock.now(),
    });
    const job = await ensurePromotionJob(trx, {
      tenantId: caller.tenantId,
      tenantSlug: caller.tenantSlug,
      propertyId: property.id,
      pipelineItemId: item.id,
      marketId: evaluated.marketId,
      vintageId: evaluated.vintageId,
      parcelKey: result.parcel_key,
      parcel,
    });
    await context.fault('pipeline.promote.after_job');
    const created = property.created || item.created || match.created || job.created;
    const ids: PromotionIds = { property_id: property.id, pipeline_item_id: item.id, buy_box_match_id: match.id, diligence_job_id: job.jobId };
    return promotionMessage(ids, created ? 'created' : 'existing');
  });
  return { promotion };
}

export function promotionHandlers(context: PipelineContext) {
  return {
    async promote(request: pipelinev1.PromoteRequest, call: HandlerContext) {
      const caller = requireCaller(call);
      const evaluated = await context.discovery.evaluateParcel(
        { buyBox: request.buyBox, draftJson: request.draftJson, parcelKey: request.parcelKey, queryHash: request.queryHash },
        onBehalfOf(call),
      );
      return promote(context, caller, evaluated, 'ranked');
    },
    async promoteDirect(request: pipelinev1.PromoteDirectRequest, call: HandlerContext) {
      const caller = requireCaller(call);
      const evaluated = await context.discovery.evaluateParcel(
        { buyBox: request.buyBox, parcelKey: request.parcelKey, vintageId: request.vintageId },
        onBehalfOf(call),
      );
      return promote(context, caller, evaluated, 'direct');
    },
  };
}
