import type { Config } from '@landscreen/config';
import type { EventBus } from '@landscreen/events';
import type { Clock, Logger } from '@landscreen/rpc';
import type { Limit } from './operations/rate-limit.js';
import type { SessionCache } from './session-cache.js';
import type { TenantCache } from './tenant-cache.js';
import type { AuthDb } from './schema.js';

/** Attempt limits (per window) of sign-in; tests lower them. */
export interface AuthLimits {
  linkPerEmail: Limit;
  linkPerAddress: Limit;
  verifyPerAddress: Limit;
}

const WINDOW_MS = 15 * 60_000;

/** Attempt limits from configuration (AUTH_*_LIMIT_* variables), each per 15-minute window. */
export const limitsFrom = (config: Config): AuthLimits => ({
  linkPerEmail: { max: config.authLimits.linkPerEmail, windowMs: WINDOW_MS },
  linkPerAddress: { max: config.authLimits.linkPerAddress, windowMs: WINDOW_MS },
  verifyPerAddress: { max: config.authLimits.verifyPerAddress, windowMs: WINDOW_MS },
});

/** D5: a link is valid for 15 minutes. */
export const LINK_TTL_MS = 15 * 60_000;

export interface AuthContext {
  db: AuthDb;
  /** Carries cache invalidations to every replica (cache-invalidation.ts). */
  bus: EventBus;
  clock: Clock;
  config: Config;
  logger: Logger;
  limits: AuthLimits;
  sessions: SessionCache;
  /** Tenants by slug for legacy shared-secret callers (D7). */
  tenants: TenantCache;
  /** Asks the link mailer to look at new requests now rather than at its next sweep. */
  kickMailer(): void;
}
