import type { HandlerContext } from '@connectrpc/connect';
import type { diligencev1 } from '@landscreen/proto';
import { requireCaller, validationError } from '@landscreen/rpc';
import type { DiligenceContext } from '../context.js';
import { refused } from '../errors.js';
import { movedJobAnswer } from '../operations/job-answer.js';
import { assertSameProviderRequest, chargeStep, readStepResult, resultEventFields, settleJob, writeStepResult } from '../operations/step-result.js';
import { isRefusal, moveStep } from '../state-machine.js';
import { recordStepEvent } from '../store/events.js';
import { lockJob, stepNamed, stepsOf } from '../store/jobs.js';

/**
 * D24: persists a result the provider confirmed, typically after the worker's lease expired. No
 * claim token; never a retry. Idempotent per (job, step, provider_request_id): a step without an
 * outcome takes the result; one that has an outcome keeps it, and only a provider request the
 * ledger does not hold yet adds its cost (money spent is always recorded, never twice). Without a
 * provider_request_id a repeat cannot be told from a new call, so a step with an outcome records
 * nothing more (docs/decisions.md).
 */
export function reconcileStepHandler(context: DiligenceContext) {
  return async (request: diligencev1.ReconcileStepRequest, call: HandlerContext) => {
    const { tenantId } = requireCaller(call);
    if (!request.confirmedNoRetry) {
      throw validationError([{ type: 'literal_error', loc: ['body', 'confirmed_no_retry'], msg: 'Input should be True', input: false, ctx: { expected: 'True' } }]);
    }
    const result = readStepResult(request.result);
    return context.db.transaction().execute(async (trx) => {
      const now = context.clock.now();
      const job = await lockJob(trx, tenantId, request.jobId);
      const step = stepNamed(await stepsOf(trx, [job.id]), request.step);
      // Nothing can have been bought for a job nobody authorized.
      if (job.status === 'queued') throw refused('not_authorized', { status: job.status });
      await assertSameProviderRequest(trx, step, result);
      const move = moveStep('reconcile', step.status, {}, result.status);
      if (isRefusal(move)) throw refused(move.refuse, { step: step.name, status: step.status });
      const written = move.changed ? await writeStepResult(trx, step, move, result, now, null) : step;
      await context.faults?.('diligence.reconcile.after_result');
      const chargeable = move.changed || result.providerRequestId !== null;
      const { job: charged, charged: costAdded } = chargeable ? await chargeStep(trx, job, written, result, now) : { job, charged: false };
      if (move.event) await recordStepEvent(trx, move.event, charged, written, now, resultEventFields(result, { reconciled: true }));
      const settled = move.changed || costAdded ? await settleJob(trx, charged, now) : charged;
      return movedJobAnswer('landscreen.diligence.v1.ReconcileStepResponse', trx, settled, now);
    });
  };
}
