import type { CallerMessage } from './caller-message.js';

/** How long a resolved session is trusted without asking the database again. */
export const SESSION_CACHE_MS = 30_000;
const MAX_ENTRIES = 50_000;

interface Entry {
  caller: CallerMessage;
  /** The earlier of the session's own expiry and the cache lifetime. */
  validUntil: number;
}

/**
 * Resolved sessions, so that an authenticated request costs no query (authentication
 * adds ≤ 1 ms). Revocation and role changes bite on the next request: logout evicts the session
 * here before it answers, and logouts and membership changes are broadcast to every replica,
 * which evicts the session or everything of the identity (cache-invalidation.ts). SESSION_CACHE_MS
 * remains the backstop for a replica that missed a broadcast. Only positive answers are kept.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly keysBySession = new Map<string, Set<string>>();
  private readonly sessionsByIdentity = new Map<string, Set<string>>();

  get(sessionDigest: string, tenant: string | undefined, now: number): CallerMessage | undefined {
    const key = `${sessionDigest}|${tenant ?? ''}`;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.validUntil <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.caller;
  }

  set(sessionDigest: string, tenant: string | undefined, caller: CallerMessage, sessionExpiresAt: number, now: number): void {
    // Entries that expire are dropped when read, but their session and identity indexes stay:
    // bounding those too keeps a server that sees endless distinct sessions within its memory.
    if (this.entries.size >= MAX_ENTRIES || this.keysBySession.size >= MAX_ENTRIES || this.sessionsByIdentity.size >= MAX_ENTRIES) this.clear();
    const key = `${sessionDigest}|${tenant ?? ''}`;
    this.entries.set(key, { caller, validUntil: Math.min(sessionExpiresAt, now + SESSION_CACHE_MS) });
    let keys = this.keysBySession.get(sessionDigest);
    if (!keys) this.keysBySession.set(sessionDigest, (keys = new Set()));
    keys.add(key);
    if (caller.identity.id) {
      let sessions = this.sessionsByIdentity.get(caller.identity.id);
      if (!sessions) this.sessionsByIdentity.set(caller.identity.id, (sessions = new Set()));
      sessions.add(sessionDigest);
    }
  }

  /** Forgets a session under every tenant it was resolved for. */
  evict(sessionDigest: string): void {
    for (const key of this.keysBySession.get(sessionDigest) ?? []) this.entries.delete(key);
    this.keysBySession.delete(sessionDigest);
  }

  /** Forgets every session of an identity (its memberships or roles changed). */
  evictIdentity(identityId: string): void {
    for (const sessionDigest of this.sessionsByIdentity.get(identityId) ?? []) this.evict(sessionDigest);
    this.sessionsByIdentity.delete(identityId);
  }

  clear(): void {
    this.entries.clear();
    this.keysBySession.clear();
    this.sessionsByIdentity.clear();
  }
}
