import { Code } from '@connectrpc/connect';
import type { authv1 } from '@landscreen/proto';
import { serviceError } from '@landscreen/rpc';
import type { AuthContext } from '../context.js';
import { hitLimits } from '../operations/rate-limit.js';
import { digest, newToken } from '../tokens.js';

const invalidLink = () => serviceError(Code.Unauthenticated, 'invalid_link', 'This sign-in link is unknown, used or expired.');

/**
 * D6. Consuming the link and opening the session are one transaction, and the link is consumed by
 * a conditional update: of concurrent verifies of one link exactly one opens a session.
 */
export function verifyLink(context: AuthContext) {
  return async (request: authv1.VerifyLinkRequest) => {
    const now = context.clock.now();
    const verdict = await hitLimits(context.db, now, [[`verify:address:${request.clientAddress}`, context.limits.verifyPerAddress]]);
    if (!verdict.allowed) {
      throw serviceError(Code.ResourceExhausted, 'rate_limited', 'Too many sign-in attempts; try again later.', {
        retry_after_seconds: verdict.retryAfterSeconds,
      });
    }
    const token = newToken();
    const expiresAt = new Date(now.getTime() + context.config.sessionTtlDays * 86_400_000);
    const opened = await context.db.transaction().execute(async (trx) => {
      const link = await trx
        .with('used', (db) =>
          db
            .updateTable('magic_links')
            .set({ used_at: now })
            .where('token_digest', '=', digest(request.token))
            .where('used_at', 'is', null)
            .where('expires_at', '>', now)
            .returning(['identity_id', 'tenant_id']),
        )
        .selectFrom('used')
        .innerJoin('identities as i', 'i.id', 'used.identity_id')
        .innerJoin('tenants as t', 't.id', 'used.tenant_id')
        .leftJoin('memberships as m', (join) => join.onRef('m.identity_id', '=', 'used.identity_id').onRef('m.tenant_id', '=', 'used.tenant_id'))
        .select(['used.identity_id', 'i.email', 't.id as tenant_id', 't.slug', 't.name', 'm.role'])
        .executeTakeFirst();
      // A link whose membership was removed since it was sent opens nothing.
      if (!link?.role) return undefined;
      await trx
        .insertInto('sessions')
        .values({ token_digest: digest(token), identity_id: link.identity_id, created_at: now, expires_at: expiresAt, revoked_at: null })
        .execute();
      return link;
    });
    if (!opened) throw invalidLink();
    return {
      session: { token, expiresAt: expiresAt.toISOString() },
      identity: { id: opened.identity_id, email: opened.email },
      tenant: { id: opened.tenant_id, slug: opened.slug, name: opened.name },
      role: opened.role!,
    };
  };
}
