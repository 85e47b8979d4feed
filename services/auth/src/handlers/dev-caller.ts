import { Code } from '@connectrpc/connect';
import { serviceError } from '@landscreen/rpc';
import { announceMembershipChange } from '../cache-invalidation.js';
import type { AuthContext } from '../context.js';
import { ROLES, type Role } from '../schema.js';
import { ensureIdentity, SLUG } from '../operations/tenants.js';
import { normaliseEmail } from '../tokens.js';
import type { CallerMessage } from '../caller-message.js';

const EMAIL = /^[^\s@:]+@[^\s@:]+\.[^\s@:]+$/;

/**
 * D7 dev sessions: `dev:<email>[:<role>]` acts as that email in the X-Tenant tenant, creating the
 * tenant, the identity and a membership on first use with the token's role (admin when it names
 * none), so a magic-link session of that email later has the same role. The token's role, when
 * given, is the role of the request; otherwise the membership's.
 */
export async function devCaller(context: AuthContext, token: string, tenantSlug: string | undefined): Promise<CallerMessage> {
  const [, rawEmail = '', rawRole] = token.split(':');
  const email = normaliseEmail(rawEmail);
  if (!EMAIL.test(email) || (rawRole !== undefined && !ROLES.includes(rawRole as Role))) {
    throw serviceError(Code.Unauthenticated, 'invalid_token', 'A dev token reads dev:<email>[:<admin|analyst|viewer|worker>].');
  }
  if (!tenantSlug) {
    throw serviceError(Code.InvalidArgument, 'tenant_required', 'A dev session acts in the tenant named by the X-Tenant header.');
  }
  if (!SLUG.test(tenantSlug)) {
    throw serviceError(Code.InvalidArgument, 'invalid_tenant', 'X-Tenant must be a slug: lowercase letters, digits and dashes.');
  }
  // Dev sessions are idempotent: what was resolved once is reused for a while, as for sessions.
  const cacheKey = `dev:${email}`;
  const now = context.clock.now().getTime();
  const cached = context.sessions.get(cacheKey, tenantSlug, now);
  if (cached) return { ...cached, role: (rawRole as Role | undefined) ?? cached.role };
  await context.db.insertInto('tenants').values({ slug: tenantSlug, name: tenantSlug }).onConflict((c) => c.column('slug').doNothing()).execute();
  const tenant = await context.db.selectFrom('tenants').select(['id', 'slug', 'name']).where('slug', '=', tenantSlug).executeTakeFirstOrThrow();
  const identity = await ensureIdentity(context.db, email);
  const created = await context.db
    .insertInto('memberships')
    .values({ tenant_id: tenant.id, identity_id: identity.id, role: (rawRole as Role | undefined) ?? 'admin' })
    .onConflict((c) => c.columns(['tenant_id', 'identity_id']).doNothing())
    .returning('role')
    .executeTakeFirst();
  // A new membership changes what the identity's other sessions resolve to (e.g. tenant_required).
  if (created) await announceMembershipChange(context.bus, identity.id, context.logger);
  const membership = await context.db
    .selectFrom('memberships')
    .select('role')
    .where('tenant_id', '=', tenant.id)
    .where('identity_id', '=', identity.id)
    .executeTakeFirstOrThrow();
  const caller: CallerMessage = { tenant, identity, role: membership.role, kind: 'dev', sessionId: '' };
  context.sessions.set(cacheKey, tenantSlug, caller, Number.MAX_SAFE_INTEGER, now);
  return { ...caller, role: (rawRole as Role | undefined) ?? membership.role };
}
