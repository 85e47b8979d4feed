import type { catalogv1 } from '@landscreen/proto';

/**
 * X-Credits-Charged, X-Credits-Remaining, X-RateLimit-Limit and X-RateLimit-Remaining on every
 * billed answer (D34), and Idempotent-Replayed on the replay of a stored answer.
 */
export function billingHeaders(billing: catalogv1.BillingStatus | undefined): Record<string, string> {
  if (!billing) throw new Error('the catalog service answered a billed request without its billing status');
  return {
    'x-credits-charged': String(billing.creditsCharged),
    'x-credits-remaining': String(billing.creditsRemaining),
    'x-ratelimit-limit': String(billing.rateLimitLimit),
    'x-ratelimit-remaining': String(billing.rateLimitRemaining),
    ...(billing.replayed && { 'idempotent-replayed': 'true' }),
  };
}
