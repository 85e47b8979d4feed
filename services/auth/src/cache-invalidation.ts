import type { EventBus } from '@landscreen/events';
import type { Logger } from '@landscreen/rpc';
import type { SessionCache } from './session-cache.js';

/**
 * Every auth replica keeps resolved sessions for SESSION_CACHE_MS (session-cache.ts). A logout or
 * a membership change is told to all of them as a broadcast on the bus (fan-out, nothing stored),
 * and each evicts what it holds, so the change bites on the next request whichever replica serves
 * it. A replica that misses a notice (the bus was away) is right again when the entry expires.
 */
export const AUTH_CACHE_SUBJECT = 'auth.cache.invalidate';

type Invalidation = { session: string } | { identity: string };

/** A broadcast waits for the bus at most this long: a logout or a CLI command never hangs on it. */
const BROADCAST_TIMEOUT_MS = 2_000;

/** Tells every replica that a session (its digest, hex) was revoked. */
export const announceLogout = (bus: EventBus, sessionDigest: string, logger?: Logger) => announce(bus, { session: sessionDigest }, logger);

/** Tells every replica that an identity's memberships or roles changed. */
export const announceMembershipChange = (bus: EventBus, identityId: string, logger?: Logger) => announce(bus, { identity: identityId }, logger);

async function announce(bus: EventBus, message: Invalidation, logger?: Logger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the bus within ${BROADCAST_TIMEOUT_MS} ms`)), BROADCAST_TIMEOUT_MS);
  });
  try {
    await Promise.race([bus.broadcast(AUTH_CACHE_SUBJECT, message), timeout]);
  } catch (error) {
    // The change itself is committed; other replicas see it when their cached entry expires.
    logger?.warn({ err: error, invalidation: message }, 'could not broadcast an auth cache invalidation');
  } finally {
    clearTimeout(timer);
  }
}

/** Evicts from this replica's cache what other replicas (and this one) announce. */
export function listenForInvalidations(bus: EventBus, sessions: SessionCache) {
  return bus.listen(AUTH_CACHE_SUBJECT, (_subject, data) => {
    const message = (data ?? {}) as Partial<Record<'session' | 'identity', unknown>>;
    if (typeof message.session === 'string') sessions.evict(message.session);
    if (typeof message.identity === 'string') sessions.evictIdentity(message.identity);
  });
}
