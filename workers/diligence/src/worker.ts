import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { WorkerConfig } from '@landscreen/config';
import { DILIGENCE_STREAM, DILIGENCE_SUBJECTS, diligenceSubject, type BusEvent, type EventBus, type Subscription } from '@landscreen/events';
import type { Logger } from '@landscreen/rpc';
import { apiClient, isApiError } from './api-client.js';
import { DailyBudget } from './budget.js';
import { driveJob, JobBusy } from './drive-job.js';
import { providerRegistry } from './providers/index.js';

export interface DiligenceWorkerOptions {
  bus: EventBus;
  /** The gateway the worker calls, e.g. http://127.0.0.1:8080. */
  gatewayUrl: string;
  /** D7: the legacy shared secret; with X-Tenant it acts as a `worker` of that tenant. */
  secret: string;
  config: WorkerConfig;
  logger: Logger;
  /** Sent with every claim; defaults to host, pid and a random suffix. */
  workerId?: string;
  /** Durable consumer name: every worker process on it shares the work. */
  durable?: string;
  /** Pause before claiming again after the n-th retryable failure of a step (default 1 s, 2 s, …). */
  retryDelayMs?: (attempts: number) => number;
}

export interface DiligenceWorker {
  readonly workerId: string;
  /** Stops taking events, interrupts pauses, and waits for the jobs in hand to reach a safe point. */
  stop(): Promise<void>;
}

/** The events that can make a job runnable: a new job, or an authorization (by a person, or a retry). */
export const WORKER_SUBJECTS = [diligenceSubject('job', 'created'), diligenceSubject('job', 'authorized')];
export const WORKER_DURABLE = 'diligence-worker';

interface JobEventData {
  job_id?: string;
  /** The tenant's slug (X-Tenant); every diligence event carries it. */
  tenant?: string;
}

/**
 * The diligence worker: a durable consumer (explicit acks, bounded concurrency) of job events
 * that drives each job through the public REST API with a worker credential — exactly what a
 * third-party worker could do. The handler is idempotent (it re-reads the job first), so
 * redelivery, duplicates and several worker processes are all safe.
 */
export async function startDiligenceWorker(options: DiligenceWorkerOptions): Promise<DiligenceWorker> {
  const { bus, config, logger } = options;
  const workerId = options.workerId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const apiFor = apiClient({ baseUrl: options.gatewayUrl.replace(/\/+$/, ''), secret: options.secret });
  const budget = new DailyBudget(config.dailyBudgetUsd);
  const providers = providerRegistry(config.providerUrls, config.providerTimeoutMs);
  const retryDelayMs = options.retryDelayMs ?? ((attempts: number) => Math.min(1_000 * 2 ** Math.max(0, attempts - 1), 30_000));
  const stopping = new AbortController();
  /**
   * Jobs this process is driving. Another event for one of them is not dropped: it marks the job
   * to be read again once this drive ends (a person may have authorized it while the daily budget
   * was saying no), so no event's news is lost to a drive already past the point it would change.
   */
  const driving = new Map<string, { again: boolean }>();

  const handle = async (event: BusEvent): Promise<void> => {
    const data = (event.data ?? {}) as JobEventData;
    const jobId = data.job_id;
    const tenant = data.tenant;
    if (!jobId || !tenant) {
      logger.warn({ event: event.id, subject: event.subject }, 'job event without a job id or tenant slug; skipped');
      return;
    }
    const inHand = driving.get(jobId);
    if (inHand) {
      inHand.again = true;
      return;
    }
    const mark = { again: false };
    driving.set(jobId, mark);
    const log = logger.child({ job: jobId, tenant });
    const context = {
      api: apiFor(tenant),
      workerId,
      leaseSeconds: config.leaseSeconds,
      jobBudgetUsd: config.jobMaxUsd,
      budget,
      providers,
      logger: log,
      retryDelayMs,
      signal: stopping.signal,
    };
    try {
      let result;
      do {
        mark.again = false;
        result = await driveJob(context, jobId);
      } while (mark.again);
      log.debug({ result, subject: event.subject }, 'job driven');
    } catch (error) {
      // Thrown means "deliver this event again later" (the bus backs off): a busy job, the
      // gateway away, or the worker stopping.
      if (error instanceof JobBusy) log.debug({ leaseExpiresAt: error.job.lease_expires_at }, 'job claimed by another worker; will look again');
      else if (isApiError(error, 422) || isApiError(error, 403)) {
        // Asking again cannot help: a request the API finds malformed, or a tenant the worker
        // credential may not act for (it no longer exists). A wrong secret (401) is retried
        // instead, so fixing the configuration loses nothing.
        log.error({ err: error, body: error.body }, 'the API refused the worker; event dropped');
        return;
      } else if (!stopping.signal.aborted) log.warn({ err: error }, 'driving the job failed; it will be retried');
      throw error;
    } finally {
      driving.delete(jobId);
    }
  };

  await bus.ensureStream(DILIGENCE_STREAM, DILIGENCE_SUBJECTS);
  const subscription: Subscription = await bus.subscribe(
    DILIGENCE_STREAM,
    {
      durable: options.durable ?? WORKER_DURABLE,
      subjects: WORKER_SUBJECTS,
      concurrency: config.concurrency,
      // A job is driven within its lease; only after that may another worker take the event.
      ackWaitMs: (config.leaseSeconds + 30) * 1000,
    },
    handle,
  );
  logger.info({ workerId, gateway: options.gatewayUrl, concurrency: config.concurrency, dailyBudgetUsd: config.dailyBudgetUsd, jobMaxUsd: config.jobMaxUsd }, 'diligence worker is up');

  return {
    workerId,
    async stop() {
      stopping.abort(new Error('the worker is stopping'));
      await subscription.stop();
    },
  };
}
