import { Code } from '@connectrpc/connect';
import { sql } from 'kysely';
import type { authv1 } from '@landscreen/proto';
import { serviceError } from '@landscreen/rpc';
import type { AuthContext } from '../context.js';
import { hitLimits } from '../operations/rate-limit.js';
import type { Role } from '../schema.js';
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
      const { rows } = await sql<{ identity_id: string; email: string; tenant_id: string; slug: string; name: string; role: Role | null }>`
        with used as (
          update auth.magic_links set used_at = ${now}
          where token_digest = ${digest(request.token)} and used_at is null and expires_at > ${now}
          returning identity_id, tenant_id
        )
        select used.identity_id, i.email, t.id as tenant_id, t.slug, t.name, m.role
        from used
        join auth.identities i on i.id = used.identity_id
        join auth.tenants t on t.id = used.tenant_id
        left join auth.memberships m on m.identity_id = used.identity_id and m.tenant_id = used.tenant_id`.execute(trx);
      const link = rows[0];
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
