import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors/index.js';
import { csrfAccepted, CSRF_HEADER, sessionCookieOf } from './browser-session.js';

export interface Credentials {
  token: string;
  tenant: string | undefined;
  serviceTokenId: string | undefined;
  /** True when the token came from the console's session cookie (D40), not an authorization header. */
  fromCookie?: boolean;
}

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
};

export const unauthenticated = (detail = 'Authentication required: send authorization: Bearer <token>.') =>
  new ApiError(401, 'unauthenticated', detail, {}, { 'www-authenticate': 'Bearer' });

/**
 * `authorization: Bearer <token>` (D4), `X-Tenant` (D3) and `x-service-token-id` (D8); without an
 * authorization header, the console's session cookie, whose writes need the CSRF header (D40).
 */
export function readCredentials(request: FastifyRequest): Credentials {
  const authorization = header(request, 'authorization');
  if (!authorization) {
    const cookie = sessionCookieOf(request);
    if (cookie === undefined) throw unauthenticated();
    if (!csrfAccepted(request, cookie)) {
      throw new ApiError(403, 'csrf_failed', `A write made with the console's session cookie needs its ${CSRF_HEADER} header.`);
    }
    return { token: cookie, tenant: header(request, 'x-tenant'), serviceTokenId: undefined, fromCookie: true };
  }
  const match = /^Bearer\s+(\S.*)$/i.exec(authorization);
  if (!match) throw unauthenticated('The authorization header must read: Bearer <token>.');
  return { token: match[1]!.trim(), tenant: header(request, 'x-tenant'), serviceTokenId: header(request, 'x-service-token-id') };
}
