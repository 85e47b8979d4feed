import { Gauge, Histogram } from 'prom-client';

/** What a connection pool says about itself at scrape time (pg.Pool's own counters). */
export interface PoolState {
  total: number;
  idle: number;
  waiting: number;
}

const pools = new Map<string, () => PoolState>();

const reading = (field: keyof PoolState) =>
  function (this: Gauge<'pool'>) {
    this.reset(); // a closed pool disappears instead of showing its last value forever
    for (const [pool, state] of pools) this.set({ pool }, state()[field]);
  };

/** Connections open (busy + idle). PGlite has one engine: its total is 1. */
export const dbPoolConnections = new Gauge({
  name: 'landscreen_db_pool_connections',
  help: 'Database connections open in the pool (busy and idle)',
  labelNames: ['pool'] as const,
  collect: reading('total'),
});

export const dbPoolIdle = new Gauge({
  name: 'landscreen_db_pool_idle_connections',
  help: 'Open database connections nobody is using',
  labelNames: ['pool'] as const,
  collect: reading('idle'),
});

/** Callers queued for a connection (PGlite: for its single engine). */
export const dbPoolWaiting = new Gauge({
  name: 'landscreen_db_pool_waiting',
  help: 'Queries or transactions waiting for a database connection',
  labelNames: ['pool'] as const,
  collect: reading('waiting'),
});

/** How long a checkout waited for its connection: the waits behind `waiting`. */
export const dbPoolAcquireSeconds = new Histogram({
  name: 'landscreen_db_pool_acquire_seconds',
  help: 'Time a caller waited for a database connection',
  labelNames: ['pool'] as const,
  buckets: [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
});

/** Shows a pool in the gauges until the returned function is called (when the pool closes). */
export function observePool(name: string, state: () => PoolState): () => void {
  pools.set(name, state);
  return () => {
    if (pools.get(name) === state) pools.delete(name);
  };
}
