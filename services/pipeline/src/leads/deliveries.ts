import type { HandlerContext } from '@connectrpc/connect';
import type { pipelinev1 } from '@landscreen/proto';
import { isUuid, notFound, requireCaller } from '@landscreen/rpc';
import { storedSpecMessage } from '../messages/stored-spec.js';
import type { PipelineImpl } from '../connect.js';
import type { PipelineContext } from '../context.js';
import { deliveryLeadMessage, deliverySummaryMessage, leadRequestMessage } from './views.js';

const deliveryMissing = (id: string) => notFound('delivery_not_found', `No delivery "${id}" in your organization.`);

/** D30: the tenant's deliveries, and one delivery with its request, buy box and leads by rank. */
export function deliveryHandlers(context: PipelineContext): Pick<PipelineImpl, 'listDeliveries' | 'getDelivery'> {
  return {
    async listDeliveries(_request: pipelinev1.ListDeliveriesRequest, call: HandlerContext) {
      const { tenantId } = requireCaller(call);
      const rows = await context.db
        .selectFrom('deliveries')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return { deliveries: rows.map(deliverySummaryMessage) };
    },

    async getDelivery(request: pipelinev1.GetDeliveryRequest, call: HandlerContext) {
      const { tenantId } = requireCaller(call);
      if (!isUuid(request.deliveryId)) throw deliveryMissing(request.deliveryId);
      const delivery = await context.db.selectFrom('deliveries').selectAll().where('id', '=', request.deliveryId).where('tenant_id', '=', tenantId).executeTakeFirst();
      if (!delivery) throw deliveryMissing(request.deliveryId);
      const [leadRequest, leads] = await Promise.all([
        context.db.selectFrom('lead_requests').selectAll().where('id', '=', delivery.lead_request_id).executeTakeFirstOrThrow(),
        context.db.selectFrom('delivery_leads').selectAll().where('delivery_id', '=', delivery.id).orderBy('rank').execute(),
      ]);
      return {
        delivery: {
          id: delivery.id,
          createdAt: new Date(delivery.created_at).toISOString(),
          leadRequest: leadRequestMessage(leadRequest),
          buyBox: {
            id: delivery.buy_box_id,
            name: delivery.buy_box,
            specHash: delivery.spec_hash,
            queryHash: delivery.query_hash,
            appliedSpec: storedSpecMessage(delivery.applied_spec),
          },
          market: delivery.market,
          marketId: delivery.market_id,
          vintageId: delivery.vintage_id,
          leads: leads.map(deliveryLeadMessage),
        },
      };
    },
  };
}
