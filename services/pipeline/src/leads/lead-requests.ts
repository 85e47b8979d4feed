import type { HandlerContext } from '@connectrpc/connect';
import type { pipelinev1 } from '@landscreen/proto';
import { onBehalfOf, requireCaller, validationError } from '@landscreen/rpc';
import type { PipelineContext } from '../context.js';
import { recordLeadRequestCreated } from './events.js';
import { leadRequestMessage } from './views.js';

/** The most leads one request asks for (D30: 1-500; the gateway checks it first). */
const MAX_LEADS = 500;

/** D30: a lead request is recorded `open` with its event; the lead worker fulfils it. */
export function leadRequestHandlers(context: PipelineContext) {
  return {
    async createLeadRequest(request: pipelinev1.CreateLeadRequestRequest, call: HandlerContext) {
      const caller = requireCaller(call);
      if (!Number.isInteger(request.count) || request.count < 1 || request.count > MAX_LEADS) {
        const type = request.count < 1 ? 'greater_than_equal' : 'less_than_equal';
        throw validationError([{ type, loc: ['body', 'count'], msg: `Input should be ${type === 'greater_than_equal' ? 'greater than or equal to 1' : `less than or equal to ${MAX_LEADS}`}`, input: request.count, ctx: type === 'greater_than_equal' ? { ge: 1 } : { le: MAX_LEADS } }]);
      }
      // The buy box must exist (404) and its market be entitled (403) now, as for a query; the
      // count is cheap (the ranking is cached per query_hash) and warms what the worker reads.
      await context.discovery.findLeads({ buyBox: request.buyBox, countOnly: true, limit: 0 }, onBehalfOf(call));
      const row = await context.db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('lead_requests')
          .values({
            tenant_id: caller.tenantId,
            caller: JSON.stringify(caller),
            buy_box: request.buyBox,
            count: request.count,
            note: request.note ?? null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordLeadRequestCreated(trx, { lead_request_id: inserted.id, tenant_id: caller.tenantId });
        return inserted;
      });
      return { leadRequest: leadRequestMessage(row) };
    },

    async listLeadRequests(_request: pipelinev1.ListLeadRequestsRequest, call: HandlerContext) {
      const { tenantId } = requireCaller(call);
      const rows = await context.db
        .selectFrom('lead_requests')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return { leadRequests: rows.map(leadRequestMessage) };
    },
  };
}
