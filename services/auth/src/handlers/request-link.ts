import { Code } from '@connectrpc/connect';
import type { authv1 } from '@landscreen/proto';
import { serviceError } from '@landscreen/rpc';
import type { AuthContext } from '../context.js';
import { hitLimits } from '../operations/rate-limit.js';
import { normaliseEmail } from '../tokens.js';

/**
 * D5. The request path does the same work whatever the email: count the attempt, record the
 * request, answer. Whether a link is mailed is decided afterwards by the link mailer, so neither
 * the answer nor its timing tells whether the email belongs to anyone.
 */
export function requestLink(context: AuthContext) {
  return async (request: authv1.RequestLinkRequest) => {
    const email = normaliseEmail(request.email);
    const now = context.clock.now();
    const db = context.db;
    const verdict = await hitLimits(db, now, [
      [`link:email:${email}`, context.limits.linkPerEmail],
      [`link:address:${request.clientAddress}`, context.limits.linkPerAddress],
    ]);
    if (!verdict.allowed) {
      throw serviceError(Code.ResourceExhausted, 'rate_limited', 'Too many sign-in attempts; try again later.', {
        retry_after_seconds: verdict.retryAfterSeconds,
      });
    }
    await db
      .insertInto('link_requests')
      .values({ email, tenant_slug: request.tenant ?? null, client_address: request.clientAddress, created_at: now, claimed_until: null, processed_at: null, outcome: null })
      .execute();
    context.kickMailer();
    return {};
  };
}
