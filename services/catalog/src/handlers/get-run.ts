import type { HandlerContext } from '@connectrpc/connect';
import type { catalogv1 } from '@landscreen/proto';
import { requireCaller } from '@landscreen/rpc';
import { readRun, runMessage } from '../runs/run-rows.js';
import type { RunsContext } from '../runs/runs-context.js';

/** GET /v1/runs/{run_id}: status, progress, timing and credits; another tenant's run is 404. */
export function getRun(context: RunsContext) {
  return async (request: catalogv1.GetRunRequest, call: HandlerContext) => {
    const { tenantId } = requireCaller(call);
    return { run: runMessage(await readRun(context.db, tenantId, request.runId)) };
  };
}
