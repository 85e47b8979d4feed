import type { EventBus } from '@landscreen/events';
import { announceMembershipChange } from '../cache-invalidation.js';
import { ROLES, type Role, type AuthDb } from '../schema.js';
import { normaliseEmail } from '../tokens.js';

/** D3: a tenant is addressed by a slug. */
export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export class AuthInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthInputError';
  }
}

export interface TenantRow {
  id: string;
  slug: string;
  name: string;
}

/** Creates a tenant; an existing slug is an error (operators create tenants on purpose). */
export async function createTenant(db: AuthDb, slug: string, name: string): Promise<TenantRow> {
  if (!SLUG.test(slug)) throw new AuthInputError(`"${slug}" is not a valid slug (lowercase letters, digits and dashes)`);
  if (!name.trim()) throw new AuthInputError('a tenant needs a name');
  const row = await db
    .insertInto('tenants')
    .values({ slug, name: name.trim() })
    .onConflict((conflict) => conflict.column('slug').doNothing())
    .returning(['id', 'slug', 'name'])
    .executeTakeFirst();
  if (!row) throw new AuthInputError(`tenant "${slug}" already exists`);
  return row;
}

export async function findTenant(db: AuthDb, slug: string): Promise<TenantRow | undefined> {
  return db.selectFrom('tenants').select(['id', 'slug', 'name']).where('slug', '=', slug).executeTakeFirst();
}

/** Finds or creates the identity of an email (emails compare case-insensitively). */
export async function ensureIdentity(db: AuthDb, email: string): Promise<{ id: string; email: string }> {
  const normalised = normaliseEmail(email);
  await db.insertInto('identities').values({ email: normalised }).onConflict((conflict) => conflict.column('email').doNothing()).execute();
  return db.selectFrom('identities').select(['id', 'email']).where('email', '=', normalised).executeTakeFirstOrThrow();
}

/**
 * Adds an identity to a tenant with a role, or changes its role. With the bus the auth replicas
 * listen on, every replica forgets the identity's cached sessions, so the change bites on the next
 * request; without it (a fresh database nobody serves yet) it bites within SESSION_CACHE_MS.
 */
export async function setMembership(db: AuthDb, tenantSlug: string, email: string, role: string, bus?: EventBus) {
  if (!ROLES.includes(role as Role)) throw new AuthInputError(`role must be one of ${ROLES.join(', ')}`);
  const tenant = await findTenant(db, tenantSlug);
  if (!tenant) throw new AuthInputError(`no tenant "${tenantSlug}"`);
  const identity = await ensureIdentity(db, email);
  await db
    .insertInto('memberships')
    .values({ tenant_id: tenant.id, identity_id: identity.id, role: role as Role })
    .onConflict((conflict) => conflict.columns(['tenant_id', 'identity_id']).doUpdateSet({ role: role as Role }))
    .execute();
  if (bus) await announceMembershipChange(bus, identity.id);
  return { tenant, identity, role: role as Role };
}
