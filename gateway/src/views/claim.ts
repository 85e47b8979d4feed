import type { ClaimResponse } from '@landscreen/api-schemas';
import type { diligencev1 } from '@landscreen/proto';
import { answeredJob } from './job.js';

/** POST …/claim (D23): the claim token (shown to the claimer only, here), its lease and the job. */
export function claimJson(claim: diligencev1.ClaimJobResponse): ClaimResponse {
  return { claim_token: claim.claimToken, lease_expires_at: claim.leaseExpiresAt, job: answeredJob(claim) };
}
