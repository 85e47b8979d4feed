/**
 * Pause after the `failures`-th consecutive failure: doubling from `baseMs`, capped at `maxMs`,
 * so a short NATS blip is retried at once and a long outage is not hammered.
 */
export function backoffMs(failures: number, baseMs: number, maxMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, failures - 1), maxMs);
}
