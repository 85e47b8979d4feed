import { Code, type HandlerContext } from '@connectrpc/connect';
import { serviceError } from './errors.js';

/**
 * Who is calling. The gateway authenticates once per request and passes the caller to every
 * service as call metadata; services scope every query by `tenantId`. Services are reachable only
 * from the gateway (a private network or the same process), which is what makes the header
 * trustworthy.
 */
export interface Caller {
  tenantId: string;
  tenantSlug: string;
  tenantName: string;
  /** Empty for callers without an identity (legacy secret, service token). */
  identityId: string;
  email: string;
  role: 'admin' | 'analyst' | 'viewer' | 'worker' | 'service';
  kind: 'session' | 'dev' | 'legacy' | 'service_token';
  sessionId: string;
}

export const CALLER_HEADER = 'x-landscreen-caller';

export function encodeCaller(caller: Caller): string {
  return Buffer.from(JSON.stringify(caller), 'utf8').toString('base64url');
}

export function callerHeaders(caller: Caller | undefined): Record<string, string> {
  return caller ? { [CALLER_HEADER]: encodeCaller(caller) } : {};
}

/** The caller of a service call; a call without one is refused (Unauthenticated). */
export function requireCaller(context: HandlerContext): Caller {
  const header = context.requestHeader.get(CALLER_HEADER);
  if (!header) throw serviceError(Code.Unauthenticated, 'unauthenticated', 'Authentication required.');
  try {
    return JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Caller;
  } catch {
    throw serviceError(Code.Unauthenticated, 'unauthenticated', 'Authentication required.');
  }
}

/**
 * Call options for a service calling a peer on behalf of its own caller: the same caller and
 * request id travel on, and the peer call is cancelled with the call that made it.
 */
export function onBehalfOf(call: HandlerContext) {
  const headers: Record<string, string> = {};
  for (const name of [CALLER_HEADER, 'x-request-id']) {
    const value = call.requestHeader.get(name);
    if (value) headers[name] = value;
  }
  return { headers, signal: call.signal };
}
