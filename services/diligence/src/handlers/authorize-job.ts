import type { HandlerContext } from '@connectrpc/connect';
import type { diligencev1 } from '@landscreen/proto';
import { requireCaller } from '@landscreen/rpc';
import type { DiligenceContext } from '../context.js';
import { budgetBelowCost, refused } from '../errors.js';
import { formatMoney, moneyFromDb, parseMoney } from '../money.js';
import { movedJobAnswer } from '../operations/job-answer.js';
import { FINISHED, isRefusal, moveJob } from '../state-machine.js';
import { recordJobEvent } from '../store/events.js';
import { lockJob, stepsOf } from '../store/jobs.js';

/**
 * Gives a job its budget (queued → authorized). Until a worker claims it the budget and note may
 * be changed again; the same budget and note again change nothing. A job that stopped over budget
 * with steps left (needs_review) may be given a larger one and goes on (docs/decisions.md).
 */
export function authorizeJobHandler(context: DiligenceContext) {
  return async (request: diligencev1.AuthorizeJobRequest, call: HandlerContext) => {
    const { tenantId, identityId } = requireCaller(call);
    const budget = parseMoney(request.maxCostUsd, ['body', 'max_cost_usd']);
    return context.db.transaction().execute(async (trx) => {
      const now = context.clock.now();
      const job = await lockJob(trx, tenantId, request.jobId);
      const steps = await stepsOf(trx, [job.id]);
      const stepsLeft = steps.some((step) => !FINISHED.includes(step.status));
      const move = moveJob('authorize', job.status, { stepsLeft });
      if (isRefusal(move)) throw refused(move.refuse, { status: job.status });
      if (budget < moneyFromDb(job.cost_usd)) throw budgetBelowCost(job.cost_usd);
      const unchanged = job.status === 'authorized' && job.max_cost_usd !== null && moneyFromDb(job.max_cost_usd) === budget && job.authorize_note === request.note;
      if (unchanged) return movedJobAnswer('landscreen.diligence.v1.AuthorizeJobResponse', trx, job, now, steps);
      const authorized = await trx
        .updateTable('jobs')
        .set({ status: move.to, max_cost_usd: formatMoney(budget), authorize_note: request.note, authorized_at: now, updated_at: now })
        .where('id', '=', job.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordJobEvent(trx, move.event!, authorized, now, {
        max_cost_usd: authorized.max_cost_usd,
        previous_status: job.status,
        ...(identityId && { authorized_by: identityId }),
      });
      // Authorizing changes no step: the answer shows the steps as read above.
      return movedJobAnswer('landscreen.diligence.v1.AuthorizeJobResponse', trx, authorized, now, steps);
    });
  };
}
