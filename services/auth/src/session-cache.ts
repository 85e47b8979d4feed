import type { CallerMessage } from './handlers/authenticate.js';

/** How long a resolved session is trusted without asking the database again. */
export const SESSION_CACHE_MS = 30_000;
const MAX_ENTRIES = 50_000;

interface Entry {
  caller: CallerMessage;
  /** The earlier of the session's own expiry and the cache lifetime. */
  validUntil: number;
}

/**
 * Resolved sessions, so that an authenticated request costs no query (issue 3: authentication
 * adds ≤ 1 ms). Revocation stays exact: logout goes through this service, which evicts the
 * session before it answers, so the very next request sees it revoked. Membership and role
 * changes are picked up within SESSION_CACHE_MS. Only positive answers are kept.
 */
export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  private readonly keysBySession = new Map<string, Set<string>>();

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
    if (this.entries.size >= MAX_ENTRIES) this.clear();
    const key = `${sessionDigest}|${tenant ?? ''}`;
    this.entries.set(key, { caller, validUntil: Math.min(sessionExpiresAt, now + SESSION_CACHE_MS) });
    let keys = this.keysBySession.get(sessionDigest);
    if (!keys) this.keysBySession.set(sessionDigest, (keys = new Set()));
    keys.add(key);
  }

  /** Forgets a session under every tenant it was resolved for. */
  evict(sessionDigest: string): void {
    for (const key of this.keysBySession.get(sessionDigest) ?? []) this.entries.delete(key);
    this.keysBySession.delete(sessionDigest);
  }

  clear(): void {
    this.entries.clear();
    this.keysBySession.clear();
  }
}
