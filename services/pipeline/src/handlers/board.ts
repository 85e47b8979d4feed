import type { HandlerContext } from '@connectrpc/connect';
import { ensurePromotionJob } from '@landscreen/diligence-service/data-access';
import type { pipelinev1 } from '@landscreen/proto';
import { notFound, onBehalfOf, requireCaller, validationError } from '@landscreen/rpc';
import { boardJson, cardJson } from '../board/items.js';
import { lockBoard, placeItem } from '../board/positions.js';
import { isStage, nextStage, type Stage } from '../board/stages.js';
import type { PipelineContext } from '../context.js';
import { isUuid } from '../ids.js';
import { ensureItem, ensureProperty } from '../promotion/ensure-rows.js';
import { pipelineDb } from '../schema.js';

const itemMissing = (id: string) => notFound('pipeline_item_not_found', `No pipeline item "${id}" in your organization.`);
const propertyMissing = (id: string) => notFound('property_not_found', `No property "${id}" in your organization.`);

/** One card, read back after a write, as JSON bytes. */
async function oneItem(context: PipelineContext, tenantId: string, itemId: string): Promise<Uint8Array> {
  const card = await cardJson(context.db, tenantId, itemId);
  if (card === undefined) throw itemMissing(itemId);
  return Buffer.from(card, 'utf8');
}

export function boardHandlers(context: PipelineContext) {
  return {
    /** GET /v1/pipeline: by stage then position; archived only when asked for (or filtered on). */
    async listBoard(request: pipelinev1.ListBoardRequest, call: HandlerContext) {
      const { tenantId } = requireCaller(call);
      const stage = request.stage as Stage | undefined;
      const body = await boardJson(context.db, tenantId, { stage, includeArchived: request.archived });
      return { bodyJson: Buffer.from(body, 'utf8') };
    },

    /**
     * POST /v1/pipeline: a property of the tenant, or a parcel of a market's current vintage made
     * into one. Idempotent per property; a new card gets a queued diligence job like a promoted one.
     */
    async addToBoard(request: pipelinev1.AddToBoardRequest, call: HandlerContext) {
      const caller = requireCaller(call);
      const db = pipelineDb(context.db);
      let parcel: Parameters<typeof ensureProperty>[1] | undefined;
      let propertyId = request.propertyId;
      if (propertyId !== undefined) {
        if (!isUuid(propertyId)) throw propertyMissing(propertyId);
        const found = await db.selectFrom('properties').select('id').where('id', '=', propertyId).where('tenant_id', '=', caller.tenantId).executeTakeFirst();
        if (!found) throw propertyMissing(propertyId);
      } else if (request.market !== undefined && request.parcelKey !== undefined) {
        const answer = await context.discovery.getParcel({ market: request.market, parcelKey: request.parcelKey }, onBehalfOf(call));
        const candidate = JSON.parse(Buffer.from(answer.parcelJson).toString('utf8'));
        parcel = {
          tenantId: caller.tenantId,
          marketId: answer.marketId,
          market: answer.market,
          vintageId: answer.vintageId,
          parcelKey: candidate.parcel_key,
          apn: candidate.apn,
          address: candidate.address,
          lat: candidate.lat,
          lon: candidate.lon,
          acres: candidate.typed?.acres ?? null,
          parcel: candidate,
        };
      } else {
        throw validationError([
          { type: 'value_error', loc: ['body'], msg: 'Value error, give a property_id, or a market and a parcel_key', input: {}, ctx: { error: 'property_id or market and parcel_key required' } },
        ]);
      }
      const itemId = await context.db.transaction().execute(async (trx) => {
        const property = parcel ? await ensureProperty(trx, parcel) : { id: propertyId!, created: false };
        const item = await ensureItem(trx, caller.tenantId, property.id, { notes: request.notes ?? null });
        const row = await pipelineDb(trx).selectFrom('properties').selectAll().where('id', '=', property.id).executeTakeFirstOrThrow();
        await ensurePromotionJob(trx, {
          tenantId: caller.tenantId,
          tenantSlug: caller.tenantSlug,
          propertyId: property.id,
          pipelineItemId: item.id,
          marketId: row.market_id,
          vintageId: row.vintage_id,
          parcelKey: row.parcel_key,
          parcel: row.parcel,
        });
        return item.id;
      });
      return { itemJson: await oneItem(context, caller.tenantId, itemId) };
    },

    /** PATCH /v1/pipeline/{item_id}: the stage state table (stages.ts), position and notes. */
    async updateItem(request: pipelinev1.UpdateItemRequest, call: HandlerContext) {
      const { tenantId } = requireCaller(call);
      if (!isUuid(request.itemId)) throw itemMissing(request.itemId);
      if (request.stage !== undefined && !isStage(request.stage)) {
        throw validationError([{ type: 'enum', loc: ['body', 'stage'], msg: 'Input should be a known stage', input: request.stage }]);
      }
      await context.db.transaction().execute(async (trx) => {
        await lockBoard(trx, tenantId);
        const db = pipelineDb(trx);
        const item = await db
          .selectFrom('items')
          .select(['id', 'tenant_id', 'stage'])
          .where('id', '=', request.itemId)
          .where('tenant_id', '=', tenantId)
          .executeTakeFirst();
        if (!item) throw itemMissing(request.itemId);
        const current = item.stage as Stage;
        const stage = nextStage(current, { stage: request.stage as Stage | undefined, archived: request.archived });
        await placeItem(trx, { ...item, stage: current }, stage, request.position);
        if (request.notes !== undefined || request.clearNotes) {
          await db.updateTable('items').set({ notes: request.clearNotes ? null : request.notes!, updated_at: new Date() }).where('id', '=', item.id).execute();
        }
      });
      return { itemJson: await oneItem(context, tenantId, request.itemId) };
    },
  };
}
