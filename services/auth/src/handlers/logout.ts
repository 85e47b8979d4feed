import type { authv1 } from '@landscreen/proto';
import type { AuthContext } from '../context.js';
import { authDb } from '../schema.js';
import { digest } from '../tokens.js';

/** D4, D7: revokes the presented session from the very next request; legacy and dev: no-op. */
export function logout(context: AuthContext) {
  return async (request: authv1.LogoutRequest) => {
    const tokenDigest = digest(request.token);
    const result = await authDb(context.db)
      .updateTable('sessions')
      .set({ revoked_at: context.clock.now() })
      .where('token_digest', '=', tokenDigest)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    // Evicted before answering: the next request with this token asks the database and fails.
    context.sessions.evict(tokenDigest.toString('hex'));
    return { revoked: Number(result.numUpdatedRows) > 0 };
  };
}
