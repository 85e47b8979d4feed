import type { AuthDb } from '../schema.js';
import { digest, newToken } from '../tokens.js';
import { AuthInputError, findTenant } from './tenants.js';

/** D8: a service token for utility findings. The secret is returned once and stored as a digest. */
export async function createServiceToken(db: AuthDb, tenantSlug: string, name: string) {
  const tenant = await findTenant(db, tenantSlug);
  if (!tenant) throw new AuthInputError(`no tenant "${tenantSlug}"`);
  if (!name.trim() || name.length > 128) throw new AuthInputError('a service token needs a name of 1-128 characters');
  const secret = newToken();
  const row = await db
    .insertInto('service_tokens')
    .values({ tenant_id: tenant.id, name: name.trim(), secret_digest: digest(secret), revoked_at: null })
    .onConflict((conflict) => conflict.columns(['tenant_id', 'name']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!row) throw new AuthInputError(`tenant "${tenantSlug}" already has a service token named "${name}"`);
  return { id: row.id, secret, tenant: tenant.slug, name: name.trim() };
}
