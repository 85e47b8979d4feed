import type { Kysely } from 'kysely';
import type { Config } from '@landscreen/config';
import type { Clock, Logger } from '@landscreen/rpc';
import type { Limit } from './operations/rate-limit.js';

/** Attempt limits (per window) of sign-in; tests lower them. */
export interface AuthLimits {
  linkPerEmail: Limit;
  linkPerAddress: Limit;
  verifyPerAddress: Limit;
}

export const DEFAULT_LIMITS: AuthLimits = {
  linkPerEmail: { max: 5, windowMs: 15 * 60_000 },
  linkPerAddress: { max: 30, windowMs: 15 * 60_000 },
  verifyPerAddress: { max: 60, windowMs: 15 * 60_000 },
};

/** D5: a link is valid for 15 minutes. */
export const LINK_TTL_MS = 15 * 60_000;

export interface AuthContext {
  db: Kysely<any>;
  clock: Clock;
  config: Config;
  logger: Logger;
  limits: AuthLimits;
  /** Asks the link mailer to look at new requests now rather than at its next sweep. */
  kickMailer(): void;
}
