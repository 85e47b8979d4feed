import { Code } from '@connectrpc/connect';
import { isTransportFailure, readServiceError } from '@landscreen/rpc';
import { ApiError } from './api-error.js';
import { RequestValidationError } from '../validation/index.js';

/** The one mapping from Connect codes to HTTP statuses (D2). */
const STATUS_BY_CODE: Record<Code, number> = {
  [Code.Canceled]: 503,
  [Code.Unknown]: 500,
  [Code.InvalidArgument]: 400,
  [Code.DeadlineExceeded]: 504,
  [Code.NotFound]: 404,
  [Code.AlreadyExists]: 409,
  [Code.PermissionDenied]: 403,
  [Code.ResourceExhausted]: 429,
  [Code.FailedPrecondition]: 409,
  [Code.Aborted]: 409,
  [Code.OutOfRange]: 400,
  [Code.Unimplemented]: 501,
  [Code.Internal]: 500,
  [Code.Unavailable]: 503,
  [Code.DataLoss]: 500,
  [Code.Unauthenticated]: 401,
};

/** Reasons whose HTTP status differs from their Connect code's usual one. */
const STATUS_BY_REASON: Record<string, number> = {
  insufficient_credits: 402,
  idempotency_key_reused: 422,
  answer_too_large: 413,
};

/**
 * Turns an error from a service call into what the client sees. Validation failures become the
 * D1 422; typed service errors become D2 bodies; anything untyped stays an internal error whose
 * text is never shown to the client.
 */
export function fromServiceError(error: unknown): ApiError | RequestValidationError {
  const info = readServiceError(error);
  if (info.reason === 'validation' && Array.isArray(info.fields.detail)) {
    return new RequestValidationError(info.fields.detail as never);
  }
  // A stream or connection that failed under the call (a service stopping, a reset) is an outage
  // whatever code the transport gave it, never an internal error of ours.
  const status = isTransportFailure(error) && !info.reason ? 503 : (info.reason && STATUS_BY_REASON[info.reason]) || STATUS_BY_CODE[info.code] || 500;
  if (status >= 500 && status !== 501 && status !== 503) {
    return new ApiError(500, 'internal', 'internal error');
  }
  // An outage no service described (a peer that does not answer, a connection reset under the
  // call — Aborted from the transport —, a cancelled call): its text is the transport's or a
  // driver's, never shown; the sentence is ours.
  if ((status === 503 || info.code === Code.Aborted) && !info.reason) {
    return new ApiError(503, 'unavailable', 'A service did not answer; try again shortly.', {}, { 'retry-after': '5' });
  }
  // Header values a service names for a refusal (Retry-After; D34's billing headers on 402/429)
  // travel as fields and leave the body here.
  const { retry_after_seconds: retryAfter, billing_headers: billingHeaders, ...fields } = info.fields;
  const headers: Record<string, string> = {
    ...(isStringRecord(billingHeaders) && billingHeaders),
    ...(retryAfter !== undefined && { 'retry-after': String(retryAfter) }),
  };
  return new ApiError(status, info.reason ?? defaultReason(status), info.message || 'request failed', fields, headers);
}

function defaultReason(status: number): string {
  switch (status) {
    case 400: return 'bad_request';
    case 401: return 'unauthenticated';
    case 403: return 'forbidden';
    case 404: return 'not_found';
    case 409: return 'conflict';
    case 429: return 'rate_limited';
    case 501: return 'not_implemented';
    case 503: return 'unavailable';
    default: return 'error';
  }
}

const isStringRecord = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((item) => typeof item === 'string');
