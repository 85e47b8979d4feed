import { randomUUID } from 'node:crypto';
import type { Logger } from '@landscreen/rpc';
import { isApiError, type TenantApi } from './api-client.js';
import type { Claim, Job, JobDetail, PropertySubject } from './api-types.js';
import { ProviderFailure, type StepProvider } from './providers/index.js';
import { retryCall } from './retry-call.js';

/**
 * How a claimed run ended: `stopped` — the job left `running` (finished, failed, over budget) or
 * refused a step, re-read it; `retry` — a step failed retryably and the job is claimable again;
 * `lost` — the claim stopped working (the lease expired), any late result already reconciled.
 */
export type ClaimedOutcome = { kind: 'stopped' } | { kind: 'retry'; attempts: number } | { kind: 'lost' };

export interface ClaimedRunContext {
  api: TenantApi;
  providers: (step: string) => StepProvider;
  logger: Logger;
  signal: AbortSignal;
}

const UNFINISHED = new Set(['pending', 'running']);

/**
 * Runs the steps of a claimed job in order (D22): start, call the step's provider, then complete
 * with its result — or fail (retryable when the provider says so; D25), or, when the lease expired
 * while the provider worked, reconcile the result without a claim so the money it cost is
 * recorded and the provider is never called again for it (D24).
 */
export async function runClaimed(context: ClaimedRunContext, claim: Claim, read: JobDetail): Promise<ClaimedOutcome> {
  const { api, logger, signal } = context;
  const token = claim.claim_token;
  let job: Job = claim.job;
  const property = await subjectOf(api, read);
  const order = [...job.steps].sort((a, b) => a.position - b.position).map((step) => step.name);

  for (const name of order) {
    if (signal.aborted) return { kind: 'stopped' };
    if (!UNFINISHED.has(job.steps.find((step) => step.name === name)!.status)) continue;
    try {
      job = await api.startStep(job.id, name, token);
    } catch (error) {
      if (isApiError(error, 409, 'invalid_claim')) return { kind: 'lost' };
      if (isApiError(error, 409)) return { kind: 'stopped' };
      throw error;
    }
    const step = job.steps.find((candidate) => candidate.name === name)!;
    const provider = context.providers(name);
    const requestId = randomUUID();
    let result;
    try {
      result = await provider.run({ job, step, tenant: api.tenant, property, requestId });
    } catch (error) {
      const failure = error instanceof ProviderFailure ? error : new ProviderFailure('provider_crashed', (error as Error).message || String(error), true);
      logger.warn({ job: job.id, step: name, code: failure.code, retryable: failure.retryable, attempts: step.attempts }, failure.message);
      try {
        job = await retryCall(() => api.failStep(job.id, name, token, { code: failure.code, message: failure.message.slice(0, 2000) || failure.code, retryable: failure.retryable }), signal);
      } catch (failError) {
        if (isApiError(failError, 409, 'invalid_claim')) return { kind: 'lost' };
        if (isApiError(failError, 409)) return { kind: 'stopped' };
        throw failError;
      }
      return job.status === 'authorized' ? { kind: 'retry', attempts: step.attempts } : { kind: 'stopped' };
    }
    try {
      job = await retryCall(() => api.completeStep(job.id, name, token, result), signal);
    } catch (error) {
      if (isApiError(error, 409, 'invalid_claim')) {
        await retryCall(() => api.reconcileStep(job.id, name, result), signal);
        logger.info({ job: job.id, step: name, provider: result.provider }, 'result arrived after the lease expired; reconciled');
        return { kind: 'lost' };
      }
      if (isApiError(error, 409)) return { kind: 'stopped' };
      throw error;
    }
    if (job.status !== 'running') return { kind: 'stopped' };
  }
  return { kind: 'stopped' };
}

/**
 * What the built-in providers compute from: the parcel the job was promoted with and the
 * property's contacts, as GET job showed them just before the claim (`read`); the property page
 * for a job that has no parcel.
 */
async function subjectOf(api: TenantApi, job: JobDetail): Promise<PropertySubject | null> {
  const parcel = job.parcel;
  if (!parcel) return readProperty(api, job.property_id);
  const acres = parcel.typed.acres;
  return {
    property: {
      id: job.property_id,
      market: parcel.market,
      parcel_key: parcel.parcel_key,
      vintage_id: parcel.vintage_id,
      apn: parcel.apn,
      address: parcel.address,
      lat: parcel.lat,
      lon: parcel.lon,
      acres: typeof acres === 'number' ? acres : null,
      parcel,
    },
    contacts: job.contacts,
  };
}

/**
 * The property page the built-in providers compute from. A worker credential may not be allowed
 * to read it (D8 gives `worker` the internal endpoints and reveal); the providers then say they
 * lacked the facts instead of failing the job.
 */
async function readProperty(api: TenantApi, propertyId: string): Promise<PropertySubject | null> {
  try {
    return await api.getProperty(propertyId);
  } catch (error) {
    if (isApiError(error) && [403, 404, 501].includes(error.status)) return null;
    throw error;
  }
}
