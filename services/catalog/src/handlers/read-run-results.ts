import type { HandlerContext } from '@connectrpc/connect';
import type { catalogv1 } from '@landscreen/proto';
import { requireCaller } from '@landscreen/rpc';
import { readResultsPage } from '../runs/results-page.js';
import type { RunsContext } from '../runs/runs-context.js';

/** GET /v1/runs/{run_id}/results, a page of chunks at a time: the gateway streams the pages on. */
export function readRunResults(context: RunsContext) {
  return async (request: catalogv1.ReadRunResultsRequest, call: HandlerContext) => {
    const { tenantId } = requireCaller(call);
    return readResultsPage(context.db, tenantId, request.runId, request.format, Math.max(0, request.fromChunk));
  };
}
