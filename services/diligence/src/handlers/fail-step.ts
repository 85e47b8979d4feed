import type { HandlerContext } from '@connectrpc/connect';
import type { diligencev1 } from '@landscreen/proto';
import { requireCaller } from '@landscreen/rpc';
import type { DiligenceContext } from '../context.js';
import { refused } from '../errors.js';
import { movedJobAnswer } from '../operations/job-answer.js';
import { isRefusal, MAX_ATTEMPTS, moveJob, moveStep } from '../state-machine.js';
import { assertLiveClaim } from '../store/claim.js';
import { recordJobEvent, recordStepEvent } from '../store/events.js';
import { moveJobTo } from '../store/job-updates.js';
import { lockJob, stepNamed, stepsOf } from '../store/jobs.js';

/**
 * D25: a retryable failure with attempts left returns the step to pending and the job to
 * authorized (the claim ends; any worker may claim it again); otherwise the step and the job fail.
 */
export function failStepHandler(context: DiligenceContext) {
  return async (request: diligencev1.FailStepRequest, call: HandlerContext) => {
    const { tenantId } = requireCaller(call);
    return context.db.transaction().execute(async (trx) => {
      const now = context.clock.now();
      const job = await lockJob(trx, tenantId, request.jobId);
      const step = stepNamed(await stepsOf(trx, [job.id]), request.step);
      assertLiveClaim(job, request.claimToken, now);
      // A step failed without a start was run all the same: that run is an attempt too.
      const attempts = step.attempts + (step.status === 'pending' ? 1 : 0);
      const stepMove = moveStep('fail', step.status, { retry: request.retryable && attempts < MAX_ATTEMPTS });
      if (isRefusal(stepMove)) throw refused(stepMove.refuse, { step: step.name, status: step.status });
      const failed = await trx
        .updateTable('steps')
        .set({
          status: stepMove.to,
          attempts,
          claim_token: null,
          error_code: request.code,
          error_message: request.message,
          completed_at: stepMove.to === 'failed' ? now : null,
        })
        .where('job_id', '=', job.id)
        .where('name', '=', step.name)
        .returningAll()
        .executeTakeFirstOrThrow();
      const retried = stepMove.to === 'pending';
      await recordStepEvent(trx, stepMove.event!, job, failed, now, {
        code: request.code,
        retryable: request.retryable,
        will_retry: retried,
        max_attempts: MAX_ATTEMPTS,
      });
      const jobMove = moveJob(retried ? 'step_retry' : 'step_failed', job.status);
      if (isRefusal(jobMove)) throw refused(jobMove.refuse, { status: job.status });
      const moved = await moveJobTo(trx, job, jobMove, now);
      await recordJobEvent(trx, jobMove.event!, moved, now, retried ? { reason: 'retry', step: step.name } : { reason: 'step_failed', step: step.name, code: request.code });
      return movedJobAnswer('landscreen.diligence.v1.FailStepResponse', trx, moved, now);
    });
  };
}
