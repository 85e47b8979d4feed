import { Code } from '@connectrpc/connect';
import { serviceError } from '@landscreen/rpc';

/**
 * The billing headers of D34 on a refused billed request (nothing charged): the gateway sends the
 * `billing_headers` field of an error as headers, not in the body, as it does every billed answer's.
 */
export function refusedBillingHeaders(creditsRemaining: number, rate: { limit: number; remaining: number }) {
  return {
    'x-credits-charged': '0',
    'x-credits-remaining': String(creditsRemaining),
    'x-ratelimit-limit': String(rate.limit),
    'x-ratelimit-remaining': String(rate.remaining),
  };
}

/** 402 (the gateway maps the reason): the request costs more than the month's balance. */
export const insufficientCredits = (required: number, remaining: number, rate: { limit: number; remaining: number }) =>
  serviceError(
    Code.FailedPrecondition,
    'insufficient_credits',
    `This request costs ${required} credits and ${remaining} remain this month.`,
    { required, remaining, billing_headers: refusedBillingHeaders(remaining, rate) },
  );

/** 429 with Retry-After: the tenant has made its plan's rpm billed requests this minute. */
export const rateLimited = (limit: number, retryAfterSeconds: number, creditsRemaining: number) =>
  serviceError(
    Code.ResourceExhausted,
    'rate_limited',
    `The plan allows ${limit} billed requests per minute; retry in ${retryAfterSeconds} s.`,
    { limit, retry_after_seconds: retryAfterSeconds, billing_headers: refusedBillingHeaders(creditsRemaining, { limit, remaining: 0 }) },
  );

/** 422 (the gateway maps the reason): an Idempotency-Key reused with another request body. */
export const idempotencyKeyReused = () =>
  serviceError(
    Code.InvalidArgument,
    'idempotency_key_reused',
    'This Idempotency-Key was used within 24 hours for a different request; use a new key.',
  );
