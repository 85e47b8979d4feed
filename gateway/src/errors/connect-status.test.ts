import { Code, ConnectError } from '@connectrpc/connect';
import { describe, expect, it } from 'vitest';
import { conflict, databaseUnavailable, serviceError, validationError } from '@landscreen/rpc';
import { RequestValidationError } from '../validation/index.js';
import { ApiError } from './api-error.js';
import { fromServiceError } from './connect-status.js';

describe('fromServiceError (the one Connect → HTTP mapping)', () => {
  it.each([
    [Code.NotFound, 404],
    [Code.PermissionDenied, 403],
    [Code.Unauthenticated, 401],
    [Code.FailedPrecondition, 409],
    [Code.AlreadyExists, 409],
    [Code.ResourceExhausted, 429],
    [Code.InvalidArgument, 400],
    [Code.Unimplemented, 501],
    [Code.Unavailable, 503],
  ])('maps code %s to %s with the D2 body', (code, status) => {
    const error = fromServiceError(serviceError(code, 'some_reason', 'A sentence.', { extra: 1 }));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(status);
    expect((error as ApiError).body()).toEqual({ detail: 'A sentence.', code: 'some_reason', extra: 1 });
  });

  it('keeps structured fields such as the failed evidence', () => {
    const error = fromServiceError(conflict('must_failed', 'The parcel fails a must-have.', { failed: [{ field: 'acres' }] })) as ApiError;
    expect(error.body()).toEqual({ detail: 'The parcel fails a must-have.', code: 'must_failed', failed: [{ field: 'acres' }] });
  });

  it('answers 402 for insufficient credits and sets Retry-After when a service asks for it', () => {
    expect((fromServiceError(serviceError(Code.ResourceExhausted, 'insufficient_credits', 'Out of credits.')) as ApiError).status).toBe(402);
    const limited = fromServiceError(serviceError(Code.ResourceExhausted, 'rate_limited', 'Slow down.', { retry_after_seconds: 30 })) as ApiError;
    expect(limited.headers).toEqual({ 'retry-after': '30' });
    expect(limited.body()).toEqual({ detail: 'Slow down.', code: 'rate_limited' });
  });

  it('answers a database outage 503 database_unavailable with Retry-After, not 500', () => {
    const error = fromServiceError(databaseUnavailable()) as ApiError;
    expect(error.status).toBe(503);
    expect(error.body()).toEqual({ detail: expect.any(String), code: 'database_unavailable' });
    expect(error.headers).toEqual({ 'retry-after': '5' });
  });

  it('turns a service validation failure into the D1 422 list', () => {
    const issues = [{ loc: ['body', 'cursor'], msg: 'Invalid cursor', type: 'value_error', input: 'x' }];
    const error = fromServiceError(validationError(issues));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues).toEqual(issues);
  });

  it('never shows the text of an untyped failure', () => {
    const error = fromServiceError(new ConnectError('relation "secret_table" does not exist', Code.Internal)) as ApiError;
    expect(error.status).toBe(500);
    expect(error.body()).toEqual({ detail: 'internal error', code: 'internal' });
    expect((fromServiceError(new Error('boom')) as ApiError).status).toBe(500);
  });

  it('never shows the text of an outage no service described: a sentence of its own, with Retry-After', () => {
    // Aborted is how the transport reports a connection reset under the call (the service died).
    for (const code of [Code.Unavailable, Code.Canceled, Code.Aborted]) {
      const error = fromServiceError(new ConnectError('connect ECONNREFUSED 10.0.0.7:8105 (pg: password authentication failed for user "app")', code)) as ApiError;
      expect(error.status).toBe(503);
      expect(error.body()).toEqual({ detail: 'A service did not answer; try again shortly.', code: 'unavailable' });
      expect(error.headers).toEqual({ 'retry-after': '5' });
    }
  });

  it('answers a stream reset under the call (a service stopping) as that outage, not an internal error', () => {
    const reset = new ConnectError('Stream closed with error code NGHTTP2_INTERNAL_ERROR', Code.Internal, undefined, undefined, Object.assign(new Error('Stream closed'), { code: 'ERR_HTTP2_STREAM_ERROR' }));
    const error = fromServiceError(reset) as ApiError;
    expect([error.status, error.body(), error.headers]).toEqual([503, { detail: 'A service did not answer; try again shortly.', code: 'unavailable' }, { 'retry-after': '5' }]);
  });

  it('keeps a service’s own Aborted a 409 with its reason', () => {
    const error = fromServiceError(serviceError(Code.Aborted, 'stale_state', 'Moved on.')) as ApiError;
    expect([error.status, error.body()]).toEqual([409, { detail: 'Moved on.', code: 'stale_state' }]);
  });

  it('answers an answer too large to give as 413, with its structured fields', () => {
    const error = fromServiceError(serviceError(Code.ResourceExhausted, 'answer_too_large', 'Too large.', { limit_bytes: 1, runs: '/v1/runs' })) as ApiError;
    expect(error.status).toBe(413);
    expect(error.body()).toEqual({ detail: 'Too large.', code: 'answer_too_large', limit_bytes: 1, runs: '/v1/runs' });
  });
});
