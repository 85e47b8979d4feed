import { timingSafeEqual } from 'node:crypto';
import { Code } from '@connectrpc/connect';
import { sql } from 'kysely';
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
  const { rows } = await sql<{
    expires_at: Date;
    session_id: string;
    identity_id: string;
    email: string;
    tenant_id: string | null;
    slug: string | null;
    name: string | null;
    role: Role | null;
  }>`
    select s.expires_at, s.id as session_id, i.id as identity_id, i.email, t.id as tenant_id, t.slug, t.name, m.role
    from auth.sessions s
    join auth.identities i on i.id = s.identity_id
    left join (auth.memberships m join auth.tenants t on t.id = m.tenant_id and (${tenantSlug ?? null}::text is null or t.slug = ${tenantSlug ?? null}::text))
      on m.identity_id = i.id
    where s.token_digest = ${tokenDigest} and s.revoked_at is null and s.expires_at > ${now}
    order by m.created_at
    limit 2`.execute(context.db);
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
