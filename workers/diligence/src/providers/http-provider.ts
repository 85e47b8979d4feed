import type { ResultStatus, StepResult } from '../api-types.js';
import { parseUsd } from '../money.js';
import { ProviderFailure, type StepInput, type StepProvider } from './provider.js';

const RESULT_STATUSES: readonly ResultStatus[] = ['ready', 'partial', 'needs_review'];

/**
 * A step run by an outside provider over HTTP. The worker POSTs
 * `{request_id, tenant, step, attempt, job, property}` (JSON) with `Idempotency-Key: request_id`
 * and expects 200 with `{status, provider?, provider_version?, provider_request_id?, data?,
 * citations?, cost_usd?}` (cost a decimal string). A timeout, a network error, 429 or 5xx fail the
 * step as retryable; any other answer fails it for good.
 */
export function httpProvider(url: string, timeoutMs: number): StepProvider {
  const fallbackName = `http:${new URL(url).host}`;
  return {
    name: fallbackName,
    async run(input: StepInput): Promise<StepResult> {
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': input.requestId },
          body: JSON.stringify({
            request_id: input.requestId,
            tenant: input.tenant,
            step: input.step.name,
            attempt: input.step.attempts,
            job: { id: input.job.id, property_id: input.job.property_id, market_id: input.job.market_id, vintage_id: input.job.vintage_id, parcel_key: input.job.parcel_key },
            property: input.property?.property ?? null,
          }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        if ((error as Error).name === 'TimeoutError') throw new ProviderFailure('provider_timeout', `${fallbackName} did not answer within ${timeoutMs} ms`, true);
        throw new ProviderFailure('provider_unreachable', `${fallbackName} could not be reached: ${(error as Error).message}`, true);
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        body = undefined;
      }
      if (response.status === 429 || response.status >= 500) {
        throw new ProviderFailure('provider_error', `${fallbackName} answered ${response.status}`, true);
      }
      if (response.status !== 200) throw new ProviderFailure('provider_refused', `${fallbackName} answered ${response.status}`, false);
      return readAnswer(body, fallbackName, input.requestId);
    },
  };
}

/** Checks a provider's answer against what complete accepts, so a bad answer fails the step here. */
function readAnswer(body: unknown, fallbackName: string, requestId: string): StepResult {
  const bad = (why: string) => new ProviderFailure('provider_bad_answer', `${fallbackName}: ${why}`, false);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw bad('the answer is not a JSON object');
  const answer = body as Record<string, unknown>;
  if (!RESULT_STATUSES.includes(answer.status as ResultStatus)) throw bad(`status must be one of ${RESULT_STATUSES.join(', ')}`);
  const text = (name: string, max: number): string | undefined => {
    const value = answer[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string' || value.length < 1 || value.length > max) throw bad(`${name} must be a string of 1-${max} characters`);
    return value;
  };
  // Kept as the text the provider sent; parsed only to check it is a decimal with ≤ 4 places.
  const cost = answer.cost_usd === undefined || answer.cost_usd === null ? '0' : String(answer.cost_usd);
  try {
    parseUsd(cost);
  } catch {
    throw bad('cost_usd must be a decimal amount with at most 4 places');
  }
  if (answer.data !== undefined && (typeof answer.data !== 'object' || answer.data === null || Array.isArray(answer.data))) throw bad('data must be an object');
  const citations = answer.citations ?? [];
  if (!Array.isArray(citations) || citations.length > 100 || citations.some((c) => typeof c !== 'object' || c === null || Array.isArray(c))) {
    throw bad('citations must be at most 100 objects');
  }
  return {
    status: answer.status as ResultStatus,
    provider: text('provider', 128) ?? fallbackName,
    provider_version: text('provider_version', 128) ?? null,
    provider_request_id: text('provider_request_id', 256) ?? requestId,
    data: (answer.data as Record<string, unknown> | undefined) ?? {},
    citations: citations as Record<string, unknown>[],
    cost_usd: cost,
  };
}
