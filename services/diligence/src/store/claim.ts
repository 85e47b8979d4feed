import { invalidClaim } from '../errors.js';
import type { JobRow } from './jobs.js';

/** True while the job runs under a lease that has not expired by the service's clock. */
export const leaseLive = (job: Pick<JobRow, 'status' | 'lease_expires_at'>, now: Date): boolean =>
  job.status === 'running' && job.lease_expires_at !== null && new Date(job.lease_expires_at).getTime() > now.getTime();

/** True when the job runs under a lease that has expired: it may be claimed again (D23). */
export const leaseExpired = (job: Pick<JobRow, 'status' | 'lease_expires_at'>, now: Date): boolean => job.status === 'running' && !leaseLive(job, now);

/**
 * D23 fencing: start, complete and fail need the job's live claim. A token of an expired lease, or
 * of a claim that another worker has since replaced, is refused with 409 invalid_claim.
 */
export function assertLiveClaim(job: JobRow, claimToken: string, now: Date): void {
  const holds = job.claim_token !== null && job.claim_token.toLowerCase() === claimToken.toLowerCase();
  if (!holds || !leaseLive(job, now)) throw invalidClaim();
}
