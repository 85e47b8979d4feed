import type { HandlerContext } from '@connectrpc/connect';
import type { catalogv1 } from '@landscreen/proto';
import { requireCaller } from '@landscreen/rpc';
import { runMessage } from '../runs/run-rows.js';
import type { RunsContext } from '../runs/runs-context.js';
import { stopRun } from '../runs/stop-run.js';

/**
 * DELETE /v1/runs/{run_id}: the chunks not yet done are never processed and their locations are
 * refunded (a ledger row), once: a repeat, or a race with a worker's completion, changes nothing
 * more. A run already over is answered as it is.
 */
export function cancelRun(context: RunsContext) {
  return async (request: catalogv1.CancelRunRequest, call: HandlerContext) => {
    const { tenantId } = requireCaller(call);
    const row = await stopRun(context.db, context.refund, { tenantId, runId: request.runId, status: 'cancelled' }, context.clock.now());
    return { run: runMessage(row) };
  };
}
