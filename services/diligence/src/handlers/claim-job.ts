import { randomUUID } from 'node:crypto';
import type { HandlerContext } from '@connectrpc/connect';
import type { diligencev1 } from '@landscreen/proto';
import { requireCaller } from '@landscreen/rpc';
import type { DiligenceContext } from '../context.js';
import { jobNotFound, refused } from '../errors.js';
import { jobAnswer } from '../operations/job-answer.js';
import { isRefusal, moveJob } from '../state-machine.js';
import { isUuid } from '../input.js';
import { leaseExpired } from '../store/claim.js';
import { claimAuthorized, readClaimState, type ClaimState } from '../store/claim-authorized.js';
import { recordJobEvent } from '../store/events.js';
import { lockJob } from '../store/jobs.js';
import { jobView } from '../views/job-view.js';

const DEFAULT_LEASE_SECONDS = 3600;

/**
 * D23: leases an authorized job (or one whose lease expired) to one worker. Either way the job row
 * is locked before it changes (by the conditional update, or by `select … for update`), so
 * concurrent claimers queue on it and every one after the first finds it claimed. A new claim
 * replaces the old token, which stops working.
 */
export function claimJobHandler(context: DiligenceContext) {
  return async (request: diligencev1.ClaimJobRequest, call: HandlerContext): Promise<diligencev1.ClaimJobResponse> => {
    const { tenantId } = requireCaller(call);
    const leaseSeconds = request.leaseSeconds || DEFAULT_LEASE_SECONDS;
    // Most claims find the job authorized: one statement claims it (store/claim-authorized.ts).
    if (isUuid(request.jobId)) {
      const now = context.clock.now();
      const claimToken = randomUUID();
      const leaseExpiresAt = new Date(now.getTime() + leaseSeconds * 1000);
      const claimed = await claimAuthorized(context.db, tenantId, request.jobId, { claimToken, workerId: request.workerId, leaseExpiresAt }, now);
      if (claimed) return claimAnswer(claimToken, leaseExpiresAt, jobView(claimed.job, claimed.steps, now));
      // Most of the rest lost a race for it, or the job is not theirs to take: a refusal read from
      // the job as committed is as true as one read under the lock (a refusal changes nothing), so
      // it is answered without a transaction. Only a job that looks claimable takes the lock.
      const state = await readClaimState(context.db, tenantId, request.jobId);
      if (!state) throw jobNotFound();
      refuseUnlessClaimable(state, now);
    }
    // A re-claim after the lease expired (or a job that moved meanwhile) takes the lock and reads
    // the state machine's table again under it: the answer is exactly the one this path always gave.
    return context.db.transaction().execute(async (trx) => {
      const now = context.clock.now();
      const job = await lockJob(trx, tenantId, request.jobId);
      const { move, leaseExpired } = refuseUnlessClaimable(job, now);
      const claimToken = randomUUID();
      const leaseExpiresAt = new Date(now.getTime() + leaseSeconds * 1000);
      const claimed = await trx
        .updateTable('jobs')
        .set({ status: move.to, claim_token: claimToken, claimed_by: request.workerId, lease_expires_at: leaseExpiresAt, updated_at: now })
        .where('id', '=', job.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordJobEvent(trx, move.event!, claimed, now, {
        worker_id: request.workerId,
        lease_expires_at: leaseExpiresAt.toISOString(),
        ...(leaseExpired && { replaced_worker_id: job.claimed_by }),
      });
      return claimAnswer(claimToken, leaseExpiresAt, await jobAnswer(trx, claimed, now));
    });
  };
}

/** D23's answer: the new token, shown to the claimer only, its lease and the job, running. */
const claimAnswer = (claimToken: string, leaseExpiresAt: Date, job: diligencev1.Job): diligencev1.ClaimJobResponse => ({
  $typeName: 'landscreen.diligence.v1.ClaimJobResponse',
  claimToken,
  leaseExpiresAt: leaseExpiresAt.toISOString(),
  job,
});

/** The state machine's answer to claiming this job now: a refusal is thrown (D23). */
function refuseUnlessClaimable(job: ClaimState, now: Date) {
  const expired = leaseExpired(job, now);
  const move = moveJob('claim', job.status, { leaseExpired: expired });
  if (isRefusal(move)) throw refused(move.refuse, { status: job.status });
  return { move, leaseExpired: expired };
}
