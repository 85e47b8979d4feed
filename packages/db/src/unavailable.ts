/**
 * The one place that decides whether a failure means "the database cannot be reached or cannot
 * serve right now" (an outage, answered 503 with Retry-After) rather than a fault of this code
 * (answered 500). Errors are matched by what they carry, following `cause` chains and the errors
 * of an AggregateError, because a failure can reach a caller wrapped (a failed rollback after a
 * lost connection, a dial that tried several addresses).
 */

/** How long a client should wait before asking again (Retry-After). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** A query that got no answer within the client-side query timeout: the connection was dropped. */
export class QueryTimeoutError extends Error {
  readonly code = 'LANDSCREEN_QUERY_TIMEOUT';
  constructor(readonly timeoutMs: number) {
    super(`the database did not answer within ${timeoutMs} ms; the connection was dropped`);
    this.name = 'QueryTimeoutError';
  }
}

/**
 * SQLSTATEs of an outage: class 08 (connection exception), admin shutdown, crash shutdown, cannot
 * connect now (starting, stopping, recovering), too many connections, and a statement cancelled
 * (by the statement timeout of an overloaded server, or by an operator).
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);
const UNAVAILABLE_SQLSTATE_CLASSES = ['08'];
const SOCKET_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'LANDSCREEN_QUERY_TIMEOUT']);
/** What node-postgres and its pool say, with no code, when a connection is lost or never made. */
const MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Client has encountered a connection error and is not queryable/,
  /^Client was closed and is not queryable/,
  /^Query read timeout/,
  /^Cannot use a pool after calling end on the pool/,
];

const MAX_DEPTH = 8;

export function isDatabaseUnavailable(error: unknown): boolean {
  return matches(error, 0);
}

function matches(error: unknown, depth: number): boolean {
  if (depth > MAX_DEPTH || typeof error !== 'object' || error === null) return false;
  if (error instanceof QueryTimeoutError) return true;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string') {
    if (SOCKET_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && UNAVAILABLE_SQLSTATE_CLASSES.includes(code.slice(0, 2))) return true;
  }
  if (typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message))) return true;
  if (Array.isArray(errors) && errors.some((inner) => matches(inner, depth + 1))) return true;
  return matches(cause, depth + 1);
}
