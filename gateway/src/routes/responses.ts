import { Type } from '@sinclair/typebox';
import { ErrorBody, InsufficientCreditsBody, ValidationErrorBody } from '@landscreen/api-schemas';
import type { ResponseSpec } from './route.js';
import type { Schema } from '../validation/index.js';

/** A JSON answer and its declared schema (no route answers an undeclared shape). */
export const json = (description: string, schema: Schema): ResponseSpec => ({ description, schema });
export const noContent = (description: string): ResponseSpec => ({ description });
export const pdf = (description: string): ResponseSpec => ({ description, contentType: 'application/pdf' });
/** A body that is not JSON (a file, a page): its content type, a string in the document. */
export const file = (description: string, contentType: string | readonly string[]): ResponseSpec => ({ description, contentType });

/** What each error status means wherever it is declared; 402 and 422 have bodies of their own. */
const ERRORS: Record<number, ResponseSpec> = {
  400: {
    description: 'bad_request or bad_url: the request cannot be read (a malformed URL or request line); tenant_required or invalid_tenant on a signed-in route: the caller belongs to several tenants, or X-Tenant is not a slug (D3).',
    schema: ErrorBody,
  },
  401: { description: 'unauthenticated, invalid_token or invalid_link: no valid credentials (D4).', schema: ErrorBody },
  402: { description: 'insufficient_credits: nothing charged, nothing done (D34).', schema: InsufficientCreditsBody },
  403: { description: 'forbidden or not_member: the role may not call this route, or the caller is not a member of the tenant (D8).', schema: ErrorBody },
  404: { description: 'Not found in the caller\'s tenant (the code names what: *_not_found).', schema: ErrorBody },
  409: { description: 'A conflict with the resource\'s state (the code names it).', schema: ErrorBody },
  413: { description: 'payload_too_large: the body is over the route\'s limit.', schema: ErrorBody },
  415: { description: 'unsupported_media_type: a body whose Content-Type the route does not read.', schema: ErrorBody },
  422: { description: 'Validation error (D1): `detail` lists every issue with its `loc`.', schema: ValidationErrorBody },
  431: { description: 'headers_too_large: the request headers are over the server\'s limit.', schema: ErrorBody },
  429: { description: 'rate_limited: too many requests; Retry-After says when to retry.', schema: ErrorBody },
  500: { description: 'internal: an unexpected failure; `request_id` names it in the logs.', schema: ErrorBody },
  501: { description: 'not_implemented in this build.', schema: ErrorBody },
  503: {
    description:
      'database_unavailable or unavailable: a service or its database does not answer; market_moving: the discovery replica holding the market stopped answering and another is taking it over (never a partial answer); index_reloading: a ranking index is being read again after its local copy proved damaged; Retry-After.',
    schema: ErrorBody,
  },
};

/**
 * Every route can answer these: an unreadable request, a body over its limit or of a type it does
 * not read, a bad request (D1), headers over the limit, a failure or an outage.
 */
const ALWAYS = [400, 413, 415, 422, 431, 500, 503] as const;

/** The statuses a signed-in route adds: no or bad credentials, an unnamed tenant, a role not allowed. */
export const SIGNED_IN = [400, 401, 403] as const;

/**
 * The error answers of a route: the statuses given (with their D2 bodies, D1 for 422, the 402
 * body) and those every route can give. `overrides` replaces a description where the route says
 * more (which conflict, which missing resource).
 */
export function errors(statuses: readonly number[], overrides: Record<number, string | ResponseSpec> = {}): Record<number, ResponseSpec> {
  const answer: Record<number, ResponseSpec> = {};
  for (const status of [...new Set([...statuses, ...ALWAYS])].sort((a, b) => a - b)) {
    const known = ERRORS[status];
    if (!known) throw new Error(`no error answer is described for status ${status}`);
    const override = overrides[status];
    answer[status] = override === undefined ? known : typeof override === 'string' ? { ...known, description: override } : override;
  }
  return answer;
}

/**
 * 422 on a billed route (D34): a D1 validation body, or the D2 envelope of
 * `idempotency_key_reused` (an Idempotency-Key reused with another body).
 */
export const BILLED_422: ResponseSpec = {
  description: 'Validation error (D1), or idempotency_key_reused (D2 body): the Idempotency-Key was used with another body within 24 h.',
  schema: Type.Union([ValidationErrorBody, ErrorBody]),
};

/**
 * What a PDF route adds to its errors (D39): 422 `report_too_large` (D2 body) when the document
 * would exceed its size budget, beside a D1 422; 503 `report_timeout` when it does not render
 * within its time budget, or `reports_busy` when too many are waiting.
 */
export const REPORT_ERRORS: Record<number, ResponseSpec> = {
  422: {
    description: 'Validation error (D1), or report_too_large (D2 body): the document would exceed REPORT_MAX_BYTES or the memory a report may use.',
    schema: Type.Union([ValidationErrorBody, ErrorBody]),
  },
  503: {
    description: 'report_timeout: the document did not render within REPORT_TIMEOUT_MS (its worker was replaced); reports_busy: too many reports wait (Retry-After); or database_unavailable/unavailable.',
    schema: ErrorBody,
  },
};
