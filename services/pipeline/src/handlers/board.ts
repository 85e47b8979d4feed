import type { HandlerContext } from '@connectrpc/connect';
import { ensurePromotionJob } from '@landscreen/diligence-service/data-access';
import { type pipelinev1 } from '@landscreen/proto';
import * as discoveryjson from '@landscreen/discovery-json';
import { isUuid, notFound, onBehalfOf, requireCaller, validationError } from '@landscreen/rpc';
import { boardCards, oneCard } from '../board/items.js';
import { lockBoard, placeItem } from '../board/positions.js';
import { isStage, nextStage, type Stage } from '../board/stages.js';
import type { PipelineContext } from '../context.js';
import { ensureItem, ensureProperty, type PropertyInput } from '../promotion/ensure-rows.js';

const itemMissing = (id: string) => notFound('pipeline_item_not_found', `No pipeline item "${id}" in your organization.`);
const propertyMissing = (id: string) => notFound('property_not_found', `No property "${id}" in your organization.`);

/** One card, read back after a write. */
async function cardAfterWrite(context: PipelineContext, tenantId: string, itemId: string): Promise<pipelinev1.Card> {
  const card = await oneCard(context.db, tenantId, { itemId });
  if (card === undefined) throw itemMissing(itemId);
  return card;
}

export function boardHandlers(context: PipelineContext) {
  return {
    /** GET /v1/pipeline: by stage then position; archived only when asked for (or filtered on). */
    async listBoard(request: pipelinev1.ListBoardRequest, call: HandlerContext) {
      const { tenantId } = requireCaller(call);
      const stage = request.stage as Stage | undefined;
      return { cards: await boardCards(context.db, tenantId, { stage, includeArchived: request.archived }) };
    },

    /**
     * POST /v1/pipeline: a property of the tenant, or a parcel of a market's current vintage made
     * into one. Idempotent per property; a new card gets a queued diligence job like a promoted one.
     */
    async addToBoard(request: pipelinev1.AddToBoardRequest, call: HandlerContext) {
      const caller = requireCaller(call);
      // The property to put on the board: the tenant's own (by id), or a parcel made into one.
      let property: PropertyInput | (Pick<PropertyInput, 'marketId' | 'vintageId' | 'parcelKey' | 'parcel'> & { id: string });
      if (request.propertyId !== undefined) {
        const propertyId = request.propertyId;
        if (!isUuid(propertyId)) throw propertyMissing(propertyId);
        const found = await context.db
          .selectFrom('properties')
          .select(['id', 'market_id', 'vintage_id', 'parcel_key', 'parcel'])
          .where('id', '=', propertyId)
          .where('tenant_id', '=', caller.tenantId)
          .executeTakeFirst();
        if (!found) throw propertyMissing(propertyId);
        property = { id: found.id, marketId: found.market_id, vintageId: found.vintage_id, parcelKey: found.parcel_key, parcel: found.parcel };
      } else if (request.market !== undefined && request.parcelKey !== undefined) {
        const answer = await context.discovery.getParcel({ market: request.market, parcelKey: request.parcelKey }, onBehalfOf(call));
        const parcel = answer.parcel!;
        // The property stores the ParcelCandidate's JSON; its columns come from the message.
        const candidate = discoveryjson.parcelCandidateValue(parcel);
        property = {
          tenantId: caller.tenantId,
          marketId: answer.marketId,
          market: answer.market,
          vintageId: answer.vintageId,
          parcelKey: parcel.parcelKey,
          apn: parcel.apn ?? null,
          address: parcel.address ?? null,
          lat: parcel.lat ?? null,
          lon: parcel.lon ?? null,
          acres: typeof candidate.typed.acres === 'number' ? candidate.typed.acres : null,
          parcel: candidate,
        };
      } else {
        throw validationError([
          { type: 'value_error', loc: ['body'], msg: 'Value error, give a property_id, or a market and a parcel_key', input: {}, ctx: { error: 'property_id or market and parcel_key required' } },
        ]);
      }
      const itemId = await context.db.transaction().execute(async (trx) => {
        const propertyId = 'id' in property ? property.id : (await ensureProperty(trx, property)).id;
        const item = await ensureItem(trx, caller.tenantId, propertyId, { notes: request.notes ?? null, at: context.clock.now() });
        await ensurePromotionJob(trx, {
          tenantId: caller.tenantId,
          tenantSlug: caller.tenantSlug,
          propertyId,
          pipelineItemId: item.id,
          marketId: property.marketId,
          vintageId: property.vintageId,
          parcelKey: property.parcelKey,
          parcel: property.parcel,
        });
        return item.id;
      });
      return { card: await cardAfterWrite(context, caller.tenantId, itemId) };
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
        const item = await trx
          .selectFrom('items')
          .select(['id', 'tenant_id', 'stage'])
          .where('id', '=', request.itemId)
          .where('tenant_id', '=', tenantId)
          .executeTakeFirst();
        if (!item) throw itemMissing(request.itemId);
        const current = item.stage as Stage;
        const stage = nextStage(current, { stage: request.stage as Stage | undefined, archived: request.archived });
        await placeItem(trx, { ...item, stage: current }, stage, request.position, context.clock.now());
        if (request.notes !== undefined || request.clearNotes) {
          await trx.updateTable('items').set({ notes: request.clearNotes ? null : request.notes!, updated_at: context.clock.now() }).where('id', '=', item.id).execute();
        }
      });
      return { card: await cardAfterWrite(context, tenantId, request.itemId) };
    },
  };
}
