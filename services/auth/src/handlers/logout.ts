import type { authv1 } from '@landscreen/proto';
import { announceLogout } from '../cache-invalidation.js';
import type { AuthContext } from '../context.js';
import { digest } from '../tokens.js';

/** D4, D7: revokes the presented session from the very next request; legacy and dev: no-op. */
export function logout(context: AuthContext) {
  return async (request: authv1.LogoutRequest) => {
    const tokenDigest = digest(request.token);
    const result = await context.db
      .updateTable('sessions')
      .set({ revoked_at: context.clock.now() })
      .where('token_digest', '=', tokenDigest)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    // Evicted here and on every other replica before answering: the next request with this
    // token asks the database and fails, whichever replica serves it.
    const sessionDigest = tokenDigest.toString('hex');
    context.sessions.evict(sessionDigest);
    if (Number(result.numUpdatedRows) > 0) await announceLogout(context.bus, sessionDigest, context.logger);
    return { revoked: Number(result.numUpdatedRows) > 0 };
  };
}
