import type { HandlerContext } from '@connectrpc/connect';
import type { diligencev1 } from '@landscreen/proto';
import { requireCaller } from '@landscreen/rpc';
import type { DiligenceContext } from '../context.js';
import { jobBody } from '../operations/job-answer.js';
import { readJob } from '../store/jobs.js';

/** A job of the caller's tenant with its ordered steps. */
export function getJobHandler(context: DiligenceContext) {
  return async (request: diligencev1.GetJobRequest, call: HandlerContext) => {
    const { tenantId } = requireCaller(call);
    const job = await readJob(context.db, tenantId, request.jobId);
    return jobBody(context.db, job, context.clock.now());
  };
}
