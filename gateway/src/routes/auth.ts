import { TenantHeaders } from '../schemas/common.js';
import { RequestLinkBody, VerifyBody } from '../schemas/auth.js';
import { readCredentials } from '../auth/credentials.js';
import { clearedSessionCookies, csrfTokenOf, sessionCookies } from '../auth/browser-session.js';
import { BODY_LIMITS } from './body-limits.js';
import { BrowserSessionResponse, LogoutResponse, MeResponse, RequestLinkResponse, VerifyResponse } from '@landscreen/api-schemas';
import { errors, json, SIGNED_IN } from './responses.js';
import { ANYONE } from './roles.js';
import type { RouteDef } from './route.js';
import { browserSessionJson, logoutJson, meJson, requestLinkJson, verifyJson } from '../views/auth.js';

export const authRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/v1/auth/request-link',
    operationId: 'requestLink',
    summary: 'Email a one-time sign-in link',
    description: 'Always answers 200 {"status":"sent"} whether or not the email is a member (D5).',
    tag: 'auth',
    security: 'none',
    request: { body: RequestLinkBody, bodyRequired: true },
    bodyLimit: BODY_LIMITS.small,
    responses: { 200: json('The link was sent if the email is a member.', RequestLinkResponse), ...errors([429]) },
    handler: async ({ request, raw, deps }) => {
      await deps.clients.auth.requestLink({ email: request.body.email, tenant: request.body.tenant, clientAddress: raw.ip });
      return { status: 200, body: requestLinkJson() };
    },
  },
  {
    method: 'POST',
    path: '/v1/auth/verify',
    operationId: 'verifyLink',
    summary: 'Consume a sign-in link and open a session',
    tag: 'auth',
    security: 'none',
    request: { body: VerifyBody, bodyRequired: true },
    bodyLimit: BODY_LIMITS.small,
    responses: { 200: json('A session, the identity, the tenant and the role (D6).', VerifyResponse), ...errors([401, 429]) },
    handler: async ({ request, raw, deps }) => {
      const verified = await deps.clients.auth.verifyLink({ token: request.body.token, clientAddress: raw.ip });
      return { status: 200, body: verifyJson(verified) };
    },
  },
  {
    method: 'POST',
    path: '/v1/auth/session',
    operationId: 'openBrowserSession',
    summary: 'Consume a sign-in link and open a browser session (the console)',
    description:
      'D40: as POST /v1/auth/verify, but the session token is set as an HttpOnly, SameSite=Strict cookie instead of being answered. Every write made with the cookie must send `x-csrf-token` with the `csrf_token` answered here (also set as the readable cookie landscreen_csrf).',
    tag: 'auth',
    security: 'none',
    request: { body: VerifyBody, bodyRequired: true },
    bodyLimit: BODY_LIMITS.small,
    responses: { 200: json('The identity, the tenant, the role, when the session ends and its CSRF token.', BrowserSessionResponse), ...errors([401, 429]) },
    handler: async ({ request, raw, deps }) => {
      const verified = await deps.clients.auth.verifyLink({ token: request.body.token, clientAddress: raw.ip });
      const token = verified.session!.token;
      const expiresAt = verified.session!.expiresAt;
      return {
        status: 200,
        headers: { 'cache-control': 'no-store' },
        cookies: sessionCookies(token, new Date(expiresAt), raw.protocol === 'https'),
        body: browserSessionJson(verified, csrfTokenOf(token)),
      };
    },
  },
  {
    method: 'POST',
    path: '/v1/auth/logout',
    operationId: 'logout',
    summary: 'Revoke the presented session token',
    description: 'A session of an identity in several tenants is revoked without X-Tenant (the session is one, whichever tenant it acts in).',
    tag: 'auth',
    security: 'session',
    roles: ANYONE,
    anyTenant: true,
    request: { headers: TenantHeaders },
    responses: { 200: json('The session is revoked (a no-op for legacy and dev sessions).', LogoutResponse), ...errors(SIGNED_IN) },
    handler: async ({ raw, caller, deps }) => {
      const credentials = readCredentials(raw);
      const revoked = caller!.kind === 'session' ? (await deps.clients.auth.logout({ token: credentials.token })).revoked : false;
      // A console session also loses its cookies.
      const cookies = credentials.fromCookie ? clearedSessionCookies(raw.protocol === 'https') : undefined;
      return { status: 200, body: logoutJson(revoked), cookies };
    },
  },
  {
    method: 'GET',
    path: '/v1/me',
    operationId: 'me',
    summary: 'The caller: tenant, identity and role',
    tag: 'auth',
    security: 'session',
    roles: ANYONE,
    request: { headers: TenantHeaders },
    responses: { 200: json('{"tenant","identity","role"} (D8).', MeResponse), ...errors(SIGNED_IN) },
    handler: async ({ caller }) => ({ status: 200, body: meJson(caller!) }),
  },
];
