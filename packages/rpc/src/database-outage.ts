import { Code, ConnectError, type Interceptor } from '@connectrpc/connect';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '@landscreen/db';
import { serviceError } from './errors.js';

/** The typed error of a database outage: 503 `database_unavailable` with Retry-After at the gateway. */
export function databaseUnavailable(): ConnectError {
  return serviceError(Code.Unavailable, 'database_unavailable', 'The database is unavailable; try again shortly.', {
    retry_after_seconds: DATABASE_RETRY_AFTER_SECONDS,
  });
}

/**
 * What a service answers for an error its implementation threw: a lost or unreachable database is
 * an outage, not a bug, so it becomes `databaseUnavailable()` instead of an untyped (internal)
 * error. A typed error (a peer's answer included) is passed on as it is.
 */
export function toServiceError(error: unknown): ConnectError {
  const typed = error instanceof ConnectError && error.code !== Code.Unknown && error.code !== Code.Internal;
  if (!typed && isDatabaseUnavailable(error)) return databaseUnavailable();
  return ConnectError.from(error);
}

/** toServiceError for services served over the network (serve.ts); directTransport applies it itself. */
export const databaseOutageInterceptor: Interceptor = (next) => async (request) => {
  try {
    return await next(request);
  } catch (error) {
    throw toServiceError(error);
  }
};
