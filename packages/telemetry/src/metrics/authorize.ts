import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Whether a scrape may read the metrics: always when no token is configured (the port is
 * internal), otherwise only with `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time).
 */
export function metricsScrapeAllowed(authorization: string | undefined, token: string | undefined): boolean {
  if (!token) return true;
  const match = /^Bearer\s+(.+)$/i.exec(authorization?.trim() ?? '');
  return match !== null && timingSafeEqual(digest(match[1]!), digest(token));
}
