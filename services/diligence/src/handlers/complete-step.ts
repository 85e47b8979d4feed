import type { HandlerContext } from '@connectrpc/connect';
import type { diligencev1 } from '@landscreen/proto';
import { requireCaller } from '@landscreen/rpc';
import type { DiligenceContext } from '../context.js';
import { refused } from '../errors.js';
import { movedJobAnswer } from '../operations/job-answer.js';
import { assertSameProviderRequest, chargeStep, readStepResult, resultEventFields, settleJob, writeStepResult } from '../operations/step-result.js';
import { isRefusal, moveStep } from '../state-machine.js';
import { assertLiveClaim } from '../store/claim.js';
import { recordStepEvent } from '../store/events.js';
import { lockJob, stepNamed, stepsOf } from '../store/jobs.js';

/**
 * D24: the step's result and its cost-ledger row in ONE transaction; over budget the result and
 * cost still count and the job goes to needs_review; after the last step the job takes the steps'
 * outcome (D22).
 */
export function completeStepHandler(context: DiligenceContext) {
  return async (request: diligencev1.CompleteStepRequest, call: HandlerContext) => {
    const { tenantId } = requireCaller(call);
    const result = readStepResult(request.result);
    return context.db.transaction().execute(async (trx) => {
      const now = context.clock.now();
      const job = await lockJob(trx, tenantId, request.jobId);
      const step = stepNamed(await stepsOf(trx, [job.id]), request.step);
      assertLiveClaim(job, request.claimToken, now);
      await assertSameProviderRequest(trx, step, result);
      const move = moveStep('complete', step.status, {}, result.status);
      if (isRefusal(move)) throw refused(move.refuse, { step: step.name, status: step.status });
      const completed = await writeStepResult(trx, step, move, result, now, request.claimToken.toLowerCase());
      // Tests fail here to prove the result and its ledger row commit together or not at all.
      await context.faults?.('diligence.complete.after_result');
      const { job: charged } = await chargeStep(trx, job, completed, result, now);
      await recordStepEvent(trx, move.event!, charged, completed, now, resultEventFields(result));
      const settled = await settleJob(trx, charged, now);
      return movedJobAnswer('landscreen.diligence.v1.CompleteStepResponse', trx, settled, now);
    });
  };
}
