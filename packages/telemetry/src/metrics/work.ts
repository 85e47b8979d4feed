import { Counter, Gauge } from 'prom-client';

/** Run chunks a runs worker of this process is evaluating right now. */
export const runChunksInFlight = new Gauge({
  name: 'landscreen_run_chunks_in_flight',
  help: 'Run chunks being evaluated by this process right now',
});

/** Layer and parcel imports this process is running right now. */
export const importsInFlight = new Gauge({
  name: 'landscreen_imports_in_flight',
  help: 'Layer imports running in this process right now',
  labelNames: ['kind'] as const,
});

/** Credits whose charge committed, by what was billed (fetch, batch, run). */
export const creditsCharged = new Counter({
  name: 'landscreen_credits_charged_total',
  help: 'Credits charged, counted when the charge commits, by kind of request',
  labelNames: ['kind'] as const,
});

/** Credits given back (a run stopped or failed part-way), counted when the refund commits. */
export const creditsRefunded = new Counter({
  name: 'landscreen_credits_refunded_total',
  help: 'Credits refunded, counted when the refund commits, by kind of request',
  labelNames: ['kind'] as const,
});

