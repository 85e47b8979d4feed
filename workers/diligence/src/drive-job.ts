import type { Logger } from '@landscreen/rpc';
import { isApiError, type TenantApi } from './api-client.js';
import type { Job, JobDetail, JobStatus } from './api-types.js';
import type { DailyBudget, Reservation } from './budget.js';
import type { StepProvider } from './providers/index.js';
import { runClaimed } from './run-claimed.js';
import { sleep } from './sleep.js';

/** The job is running under another worker's live lease: try again once it may have expired. */
export class JobBusy extends Error {
  constructor(readonly job: Job) {
    super(`job ${job.id} is claimed until ${job.lease_expires_at}`);
    this.name = 'JobBusy';
  }
}

export interface DriveContext {
  api: TenantApi;
  workerId: string;
  leaseSeconds: number;
  /** `max_cost_usd` of an automatic authorization. */
  jobBudgetUsd: string;
  budget: DailyBudget;
  providers: (step: string) => StepProvider;
  logger: Logger;
  /** Pause before claiming again after the `attempts`-th retryable failure of a step. */
  retryDelayMs(attempts: number): number;
  signal: AbortSignal;
}

/** What became of the job: driven to an outcome, or left queued by the daily budget. */
export type DriveResult = 'settled' | 'over_budget' | 'gone';

const SETTLED: readonly JobStatus[] = ['ready', 'partial', 'needs_review', 'failed'];
/** Each round changes the job (authorize, claim, a run); a job needing more is retried later. */
const MAX_ROUNDS = 20;

/**
 * Drives one job as far as it goes, reading its state first every round, so the same event
 * delivered twice, events in any order, or two workers on one job all end the same way: the
 * diligence service's state machine decides, and a refused step just means "re-read".
 *
 * queued → authorized automatically when the daily budget allows (else left queued for a person);
 * authorized (or running on an expired lease) → claimed and its steps run; running under another
 * worker's live lease → {@link JobBusy}. A job someone else authorized is run without a budget
 * check: the authorization is theirs.
 */
export async function driveJob(context: DriveContext, jobId: string): Promise<DriveResult> {
  const { api, logger } = context;
  let reservation: Reservation | undefined;
  try {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      if (context.signal.aborted) throw context.signal.reason;
      let job: JobDetail;
      try {
        job = await api.getJob(jobId);
      } catch (error) {
        if (isApiError(error, 404)) return 'gone';
        throw error;
      }
      if (SETTLED.includes(job.status)) return 'settled';

      if (job.status === 'queued') {
        // Still queued after our authorize answered: something refused it; let redelivery try later.
        if (reservation) throw new Error(`job ${job.id} is still queued after it was authorized`);
        const decision = await context.budget.reserve(api, context.jobBudgetUsd);
        if (!decision.allowed) {
          logger.info({ job: job.id, tenant: api.tenant, spent: decision.spentUsd, reserved: decision.reservedUsd, limit: decision.limitUsd }, 'daily budget reached; job left queued');
          return 'over_budget';
        }
        reservation = decision.reservation;
        try {
          await api.authorize(job.id, context.jobBudgetUsd, `automatic: daily budget ${decision.limitUsd} USD, ${decision.spentUsd} spent today`);
        } catch (error) {
          if (!isApiError(error, 409)) throw error; // someone moved it first: re-read
        }
        continue;
      }

      if (!job.claimable) throw new JobBusy(job);
      let claim;
      try {
        claim = await api.claim(job.id, context.workerId, context.leaseSeconds);
      } catch (error) {
        if (isApiError(error, 409)) continue; // claimed or moved by someone else meanwhile: re-read
        throw error;
      }
      // The job as read this round carries its parcel and contacts, which the claim's answer does not.
      const outcome = await runClaimed(context, claim, job);
      if (outcome.kind === 'retry') await sleep(context.retryDelayMs(outcome.attempts), context.signal);
    }
    throw new Error(`job ${jobId} did not settle within ${MAX_ROUNDS} rounds`);
  } finally {
    reservation?.release();
  }
}
