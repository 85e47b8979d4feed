import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors/index.js';

export interface Credentials {
  token: string;
  tenant: string | undefined;
  serviceTokenId: string | undefined;
}

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
};

export const unauthenticated = (detail = 'Authentication required: send authorization: Bearer <token>.') =>
  new ApiError(401, 'unauthenticated', detail, {}, { 'www-authenticate': 'Bearer' });

/** `authorization: Bearer <token>` (D4), `X-Tenant` (D3) and `x-service-token-id` (D8). */
export function readCredentials(request: FastifyRequest): Credentials {
  const authorization = header(request, 'authorization');
  if (!authorization) throw unauthenticated();
  const match = /^Bearer\s+(\S.*)$/i.exec(authorization);
  if (!match) throw unauthenticated('The authorization header must read: Bearer <token>.');
  return { token: match[1]!.trim(), tenant: header(request, 'x-tenant'), serviceTokenId: header(request, 'x-service-token-id') };
}
