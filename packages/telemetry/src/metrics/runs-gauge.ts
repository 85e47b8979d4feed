import { Gauge } from 'prom-client';

let count: (() => Promise<number>) | undefined;

/**
 * Runs accepted and not yet over (queued or running), read from the database at scrape time: the
 * truth whatever process accepted them or works on them. Every catalog replica shows the same
 * number (it is one table), so dashboards take `max`, not `sum`.
 */
export const runsInFlight = new Gauge({
  name: 'landscreen_runs_in_flight',
  help: 'Runs queued or running (from the database, at scrape time)',
  async collect() {
    if (!count) return;
    try {
      this.set(await count());
    } catch {
      // The database away: the scrape still answers, this series keeps its last value.
    }
  },
});

/** Where the gauge reads its count from; the catalog service sets it when it starts. */
export function countRunsInFlightWith(source: (() => Promise<number>) | undefined): void {
  count = source;
}
