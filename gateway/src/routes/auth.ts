import { TenantHeaders } from '../schemas/common.js';
import { RequestLinkBody, VerifyBody } from '../schemas/auth.js';
import { json } from './responses.js';
import type { RouteDef } from './route.js';

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
    responses: { 200: json('The link was sent if the email is a member.') },
  },
  {
    method: 'POST',
    path: '/v1/auth/verify',
    operationId: 'verifyLink',
    summary: 'Consume a sign-in link and open a session',
    tag: 'auth',
    security: 'none',
    request: { body: VerifyBody, bodyRequired: true },
    responses: { 200: json('A session, the identity, the tenant and the role (D6).') },
  },
  {
    method: 'POST',
    path: '/v1/auth/logout',
    operationId: 'logout',
    summary: 'Revoke the presented session token',
    tag: 'auth',
    security: 'session',
    request: { headers: TenantHeaders },
    responses: { 200: json('The session is revoked (a no-op for legacy and dev sessions).') },
  },
  {
    method: 'GET',
    path: '/v1/me',
    operationId: 'me',
    summary: 'The caller: tenant, identity and role',
    tag: 'auth',
    security: 'session',
    request: { headers: TenantHeaders },
    responses: { 200: json('{"tenant","identity","role"} (D8).') },
  },
];
