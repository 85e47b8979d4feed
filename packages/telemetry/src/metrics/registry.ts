import { collectDefaultMetrics, register } from 'prom-client';

/**
 * Every series of a process lives in prom-client's default registry: the instruments are module
 * singletons, so the code that counts (billing, the bus, the pool) needs no registry handed to it,
 * and one scrape of a process shows all of it.
 */
export const metricsRegistry = register;

let started = false;

/** How often the event-loop lag monitor samples (ms). */
export const EVENT_LOOP_MONITOR_MS = 50;

/**
 * The runtime's own series (event-loop lag and its percentiles, heap, GC, handles), once per
 * process, every series labelled with what the process is (`service`: `landscreen` for the
 * embedded default, the service's name in distributed mode).
 */
export function startProcessMetrics(service: string): void {
  if (started) return;
  started = true;
  metricsRegistry.setDefaultLabels({ service });
  // The lag monitor is a timer waking the loop at this interval, in every process, idle or not:
  // at 10 ms it cost each process about 1 % of a core doing nothing (docs/benchmarks.md). A stall
  // is recorded at its full length whatever the interval, so 50 ms still shows one of the 250 ms
  // target in the max and p99 series, for a fifth of the wake-ups.
  collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: EVENT_LOOP_MONITOR_MS });
}

/** The text exposition of every series, and its content type, for a scrape. */
export async function scrapeMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}
