import type { HandlerContext } from '@connectrpc/connect';
import type { catalogv1 } from '@landscreen/proto';
import { isUuid, issue, requireCaller, validationError } from '@landscreen/rpc';
import { listRuns as listRunRows, runMessage } from '../runs/run-rows.js';
import type { RunsContext } from '../runs/runs-context.js';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

/** GET /v1/runs: the tenant's runs, newest first, a page at a time (cursor: the last run's time and id). */
export function listRuns(context: RunsContext) {
  return async (request: catalogv1.ListRunsRequest, call: HandlerContext) => {
    const { tenantId } = requireCaller(call);
    const limit = request.limit === 0 ? DEFAULT_LIMIT : request.limit;
    if (limit < 1 || limit > MAX_LIMIT) throw validationError([issue.lessThanEqual(['query', 'limit'], request.limit, MAX_LIMIT)]);
    const after = request.cursor === undefined ? undefined : decodeCursor(request.cursor);
    const rows = await listRunRows(context.db, tenantId, limit + 1, after);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      runs: page.map(runMessage),
      nextCursor: rows.length > limit && last ? encodeCursor(new Date(last.created_at).toISOString(), last.id) : undefined,
    };
  };
}

const encodeCursor = (createdAt: string, id: string) => Buffer.from(`${createdAt}|${id}`, 'utf8').toString('base64url');

function decodeCursor(cursor: string): { createdAt: string; id: string } {
  const [createdAt, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!createdAt || !id || !isUuid(id) || Number.isNaN(Date.parse(createdAt))) {
    throw validationError([issue.valueError(['query', 'cursor'], cursor, 'invalid cursor')]);
  }
  return { createdAt, id };
}
