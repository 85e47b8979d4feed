import type { HandlerContext } from '@connectrpc/connect';
import type { diligencev1 } from '@landscreen/proto';
import { requireCaller } from '@landscreen/rpc';
import type { DiligenceContext } from '../context.js';
import { refused } from '../errors.js';
import { movedJobAnswer } from '../operations/job-answer.js';
import { isRefusal, moveStep } from '../state-machine.js';
import { assertLiveClaim } from '../store/claim.js';
import { lockJob, stepNamed, stepsOf } from '../store/jobs.js';

/**
 * Marks a step running under the caller's claim; each run is an attempt (D25). Not an outbox event:
 * D27's subjects name completions and failures, and the claim already announced the job running.
 */
export function startStepHandler(context: DiligenceContext) {
  return async (request: diligencev1.StartStepRequest, call: HandlerContext) => {
    const { tenantId } = requireCaller(call);
    return context.db.transaction().execute(async (trx) => {
      const now = context.clock.now();
      const job = await lockJob(trx, tenantId, request.jobId);
      const step = stepNamed(await stepsOf(trx, [job.id]), request.step);
      assertLiveClaim(job, request.claimToken, now);
      const sameClaim = step.claim_token !== null && step.claim_token.toLowerCase() === request.claimToken.toLowerCase();
      const move = moveStep('start', step.status, { sameClaim });
      if (isRefusal(move)) throw refused(move.refuse, { step: step.name, status: step.status });
      if (move.changed) {
        await trx
          .updateTable('steps')
          .set({ status: move.to, attempts: step.attempts + (move.attempt ? 1 : 0), claim_token: request.claimToken.toLowerCase(), started_at: now, completed_at: null })
          .where('job_id', '=', job.id)
          .where('name', '=', step.name)
          .execute();
      }
      return movedJobAnswer('landscreen.diligence.v1.StartStepResponse', trx, job, now);
    });
  };
}
