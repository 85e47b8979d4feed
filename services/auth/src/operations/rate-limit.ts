import type { AuthDb } from '../schema.js';

export interface Limit {
  /** Attempts allowed per window. */
  max: number;
  windowMs: number;
}

export interface LimitVerdict {
  allowed: boolean;
  /** Seconds until the window that refused ends (0 when allowed). */
  retryAfterSeconds: number;
}

/**
 * Fixed-window attempt counters in the database, so every replica of the service counts the same
 * attempts. Each key is counted even when another key already refused, so nothing about one key
 * (say, whether an email is known) changes how another is counted.
 */
export async function hitLimits(db: AuthDb, now: Date, limits: [key: string, limit: Limit][]): Promise<LimitVerdict> {
  let retryAfterSeconds = 0;
  for (const [key, limit] of limits) {
    const windowStart = new Date(Math.floor(now.getTime() / limit.windowMs) * limit.windowMs);
    const { hits } = await db
      .insertInto('rate_limits')
      .values({ key, window_start: windowStart, hits: 1 })
      .onConflict((conflict) => conflict.columns(['key', 'window_start']).doUpdateSet((eb) => ({ hits: eb(eb.ref('rate_limits.hits'), '+', eb.lit(1)) })))
      .returning('hits')
      .executeTakeFirstOrThrow();
    if (hits > limit.max) {
      const wait = Math.ceil((windowStart.getTime() + limit.windowMs - now.getTime()) / 1000);
      retryAfterSeconds = Math.max(retryAfterSeconds, wait, 1);
    }
  }
  return { allowed: retryAfterSeconds === 0, retryAfterSeconds };
}

/** Drops counters of windows that ended long ago. */
export async function pruneLimits(db: AuthDb, now: Date): Promise<void> {
  await db.deleteFrom('rate_limits').where('window_start', '<', new Date(now.getTime() - 86_400_000)).execute();
}
