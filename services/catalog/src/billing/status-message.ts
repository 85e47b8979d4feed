import type { MessageInitShape } from '@bufbuild/protobuf';
import type { catalogv1 } from '@landscreen/proto';
import type { BillingStatus } from './billed-request.js';

/** The BillingStatus message the gateway turns into X-Credits-* and X-RateLimit-* headers. */
export function billingStatusMessage(status: BillingStatus): MessageInitShape<typeof catalogv1.BillingStatusSchema> {
  return {
    creditsCharged: BigInt(status.creditsCharged),
    creditsRemaining: BigInt(status.creditsRemaining),
    rateLimitLimit: status.rateLimitLimit,
    rateLimitRemaining: status.rateLimitRemaining,
    replayed: status.replayed,
  };
}
