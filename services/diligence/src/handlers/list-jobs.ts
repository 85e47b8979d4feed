import type { HandlerContext } from '@connectrpc/connect';
import type { diligencev1 } from '@landscreen/proto';
import { issue, requireCaller, validationError } from '@landscreen/rpc';
import type { DiligenceContext } from '../context.js';
import { JOB_STATUSES } from '../data-access/steps.js';
import { stepsOf } from '../store/jobs.js';
import { jobView } from '../views/job-view.js';

/** One page of the tenant's jobs in one status (default queued), oldest first, with the total. */
export function listJobsHandler(context: DiligenceContext) {
  return async (request: diligencev1.ListJobsRequest, call: HandlerContext): Promise<diligencev1.ListJobsResponse> => {
    const { tenantId } = requireCaller(call);
    const status = request.status || 'queued';
    if (!(JOB_STATUSES as readonly string[]).includes(status)) {
      throw validationError([issue.literalError(['query', 'status'], status, JOB_STATUSES)]);
    }
    const limit = Math.min(Math.max(request.limit || 20, 1), 100);
    const offset = Math.max(request.offset, 0);
    const scope = context.db.selectFrom('jobs').where('tenant_id', '=', tenantId).where('status', '=', status as never);
    const [jobs, count] = await Promise.all([
      scope.selectAll().orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute(),
      scope.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    const steps = await stepsOf(context.db, jobs.map((job) => job.id));
    const now = context.clock.now();
    return { $typeName: 'landscreen.diligence.v1.ListJobsResponse', jobs: jobs.map((job) => jobView(job, steps, now)), total: Number(count.total), limit, offset };
  };
}
