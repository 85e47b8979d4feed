import { timingSafeEqual } from 'node:crypto';
import { Code } from '@connectrpc/connect';
import type { authv1 } from '@landscreen/proto';
import { isUuid, serviceError } from '@landscreen/rpc';
import type { CallerMessage } from '../caller-message.js';
import type { AuthContext } from '../context.js';
import { ROLES, type Role } from '../schema.js';
import { digest, matchesDigest } from '../tokens.js';
import { findTenant } from '../operations/tenants.js';
import { devCaller } from './dev-caller.js';

const invalidToken = () => serviceError(Code.Unauthenticated, 'invalid_token', 'The token is unknown, expired or revoked.');
const tenantRequired = () =>
  serviceError(Code.InvalidArgument, 'tenant_required', 'You belong to more than one tenant: name one with the X-Tenant header.');
const notMember = (slug: string) => serviceError(Code.PermissionDenied, 'not_member', `You are not a member of tenant "${slug}".`);

/** D3, D4, D7, D8: credentials → caller. One indexed query for a session. */
export function authenticate(context: AuthContext) {
  const { legacySharedSecret, authDev } = context.config;
  // The secret's digest once, not on every request: each request digests only what it presents.
  const secretDigest = legacySharedSecret ? digest(legacySharedSecret) : undefined;
  return async (request: authv1.AuthenticateRequest): Promise<{ caller: CallerMessage }> => {
    const { token, tenant, serviceTokenId, anyTenant } = request;
    if (!token) throw serviceError(Code.Unauthenticated, 'unauthenticated', 'Authentication required.');
    if (serviceTokenId !== undefined) return { caller: await serviceTokenCaller(context, serviceTokenId, token) };
    if (secretDigest && matchesDigest(token, secretDigest)) return { caller: await legacyCaller(context, tenant) };
    if (token.startsWith('dev:')) {
      if (!authDev) throw invalidToken();
      return { caller: await devCaller(context, token, tenant) };
    }
    return { caller: await sessionCaller(context, token, tenant, anyTenant) };
  };
}

async function sessionCaller(context: AuthContext, token: string, tenantSlug: string | undefined, anyTenant = false): Promise<CallerMessage> {
  const tokenDigest = digest(token);
  const key = tokenDigest.toString('hex');
  const now = context.clock.now();
  const cached = context.sessions.get(key, tenantSlug, now.getTime());
  if (cached) return cached;
  // The session's identity with each of its memberships (of the named tenant only, when one is
  // named), oldest first; an identity with none still has its row, with no tenant.
  const rows = await context.db
    .selectFrom('sessions as s')
    .innerJoin('identities as i', 'i.id', 's.identity_id')
    .leftJoin(
      (db) => {
        const memberships = db
          .selectFrom('memberships as m')
          .innerJoin('tenants as t', 't.id', 'm.tenant_id')
          .select(['m.identity_id', 'm.role', 'm.created_at', 't.id as tenant_id', 't.slug', 't.name']);
        return (tenantSlug === undefined ? memberships : memberships.where('t.slug', '=', tenantSlug)).as('mt');
      },
      (join) => join.onRef('mt.identity_id', '=', 'i.id'),
    )
    .select(['s.expires_at', 's.id as session_id', 'i.id as identity_id', 'i.email', 'mt.tenant_id', 'mt.slug', 'mt.name', 'mt.role'])
    .where('s.token_digest', '=', tokenDigest)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', now)
    .orderBy('mt.created_at')
    .limit(2)
    .execute();
  if (rows.length === 0) throw invalidToken();
  const [first] = rows;
  if (!first!.tenant_id) throw notMember(tenantSlug ?? '');
  // Several memberships and no tenant named: the first (oldest) one only when the call acts on the
  // session itself (logout); it is not cached, as that answer is not the session's in general.
  const ambiguous = rows.length > 1;
  if (ambiguous && !anyTenant) throw tenantRequired();
  const caller: CallerMessage = {
    tenant: { id: first!.tenant_id, slug: first!.slug!, name: first!.name! },
    identity: { id: first!.identity_id, email: first!.email },
    role: first!.role!,
    kind: 'session',
    sessionId: first!.session_id,
  };
  if (!ambiguous) context.sessions.set(key, tenantSlug, caller, new Date(first!.expires_at).getTime(), now.getTime());
  return caller;
}

/** D7: called only once the secret matched (compared by digest, in constant time, every request). */
async function legacyCaller(context: AuthContext, tenantSlug: string | undefined): Promise<CallerMessage> {
  if (!tenantSlug) throw tenantRequired();
  const now = context.clock.now().getTime();
  let tenant = context.tenants.get(tenantSlug, now);
  if (!tenant) {
    tenant = await findTenant(context.db, tenantSlug);
    if (!tenant) throw notMember(tenantSlug);
    context.tenants.set(tenant, now);
  }
  return { tenant, identity: { id: '', email: '' }, role: 'worker', kind: 'legacy', sessionId: '' };
}

async function serviceTokenCaller(context: AuthContext, id: string, secret: string): Promise<CallerMessage> {
  if (!isUuid(id)) throw invalidToken();
  const row = await context.db
    .selectFrom('service_tokens')
    .innerJoin('tenants', 'tenants.id', 'service_tokens.tenant_id')
    .select(['service_tokens.secret_digest', 'service_tokens.revoked_at', 'tenants.id', 'tenants.slug', 'tenants.name'])
    .where('service_tokens.id', '=', id)
    .executeTakeFirst();
  // Compare digests in constant time so the answer's timing says nothing about the secret.
  const given = digest(secret);
  const stored = row?.secret_digest ?? Buffer.alloc(given.length);
  if (!row || row.revoked_at || !timingSafeEqual(given, stored)) throw invalidToken();
  return {
    tenant: { id: row.id, slug: row.slug, name: row.name },
    identity: { id: '', email: '' },
    role: 'service',
    kind: 'service_token',
    sessionId: '',
  };
}

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);
