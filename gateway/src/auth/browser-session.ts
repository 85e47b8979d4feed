// D40: the console's session is the same session token the API uses (D4), kept in an HttpOnly,
// SameSite=Strict cookie the page's scripts cannot read. A cookie rides along on any request the
// browser sends, so every write made with it must also carry a CSRF token in a header (a page
// of another site can send the cookie but can neither read the token nor set a custom header
// without a CORS preflight this server never grants). The token is derived from the session
// token, so it needs no storage and dies with the session.

import { createHash } from 'node:crypto';
import { parse, serialize } from 'cookie';
import type { FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'landscreen_session';
/** Readable by the page: it sends its value back in CSRF_HEADER on every write. */
export const CSRF_COOKIE = 'landscreen_csrf';
export const CSRF_HEADER = 'x-csrf-token';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The CSRF token of a session: a digest of its secret token, so a page without the cookie cannot compute it. */
export function csrfTokenOf(sessionToken: string): string {
  return createHash('sha256').update(`landscreen-csrf\0${sessionToken}`).digest('base64url');
}

/** The session token of the request's cookie, if it has one. */
export function sessionCookieOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  const token = parse(header)[SESSION_COOKIE];
  return token === undefined || token === '' ? undefined : token;
}

/** Whether a cookie-authenticated request may go on: reads always, writes with the session's CSRF token. */
export function csrfAccepted(request: FastifyRequest, sessionToken: string): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const sent = request.headers[CSRF_HEADER];
  return typeof sent === 'string' && sent === csrfTokenOf(sessionToken);
}

/** Set-Cookie values that open the browser session until `expiresAt`. */
export function sessionCookies(sessionToken: string, expiresAt: Date, secure: boolean): string[] {
  const common = { path: '/', sameSite: 'strict' as const, secure, expires: expiresAt };
  return [
    serialize(SESSION_COOKIE, sessionToken, { ...common, httpOnly: true }),
    serialize(CSRF_COOKIE, csrfTokenOf(sessionToken), common),
  ];
}

/** Set-Cookie values that end the browser session. */
export function clearedSessionCookies(secure: boolean): string[] {
  const common = { path: '/', sameSite: 'strict' as const, secure, expires: new Date(0) };
  return [serialize(SESSION_COOKIE, '', { ...common, httpOnly: true }), serialize(CSRF_COOKIE, '', common)];
}
