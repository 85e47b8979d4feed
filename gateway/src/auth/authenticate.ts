import type { FastifyRequest } from 'fastify';
import type { Caller } from '@landscreen/rpc';
import type { ServiceClients } from '../clients.js';
import { ApiError } from '../errors/index.js';
import type { RouteDef } from '../routes/route.js';
import { readCredentials } from './credentials.js';

/**
 * Authentication and tenant resolution happen here, once per request (D3, D4, D7, D8); the
 * caller then travels to every service as call metadata. Role rules come from the route table.
 */
export async function authenticateRequest(route: RouteDef, request: FastifyRequest, clients: ServiceClients): Promise<Caller | undefined> {
  if (route.security === 'none') return undefined;
  const credentials = readCredentials(request);
  if (credentials.serviceTokenId !== undefined && route.security !== 'service-token') {
    throw new ApiError(403, 'forbidden', 'Service tokens are accepted only by GET /v1/internal/utility-findings.');
  }
  const { token, tenant, serviceTokenId } = credentials;
  const { caller } = await clients.auth.authenticate({ token, tenant, serviceTokenId, anyTenant: route.anyTenant === true });
  const resolved: Caller = {
    tenantId: caller!.tenant!.id,
    tenantSlug: caller!.tenant!.slug,
    tenantName: caller!.tenant!.name,
    identityId: caller!.identity!.id,
    email: caller!.identity!.email,
    role: caller!.role as Caller['role'],
    kind: caller!.kind as Caller['kind'],
    sessionId: caller!.sessionId,
  };
  const allowed = resolved.role === 'service' ? route.security === 'service-token' : (route.roles ?? []).includes(resolved.role);
  if (!allowed) {
    throw new ApiError(403, 'forbidden', `The ${resolved.role} role may not ${route.method} ${route.path}.`);
  }
  return resolved;
}
