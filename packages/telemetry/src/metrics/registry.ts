import { collectDefaultMetrics, register } from 'prom-client';

/**
 * Every series of a process lives in prom-client's default registry: the instruments are module
 * singletons, so the code that counts (billing, the bus, the pool) needs no registry handed to it,
 * and one scrape of a process shows all of it.
 */
export const metricsRegistry = register;

let started = false;

/**
 * The runtime's own series (event-loop lag and its percentiles, heap, GC, handles), once per
 * process, every series labelled with what the process is (`service`: `landscreen` for the
 * embedded default, the service's name in distributed mode).
 */
export function startProcessMetrics(service: string): void {
  if (started) return;
  started = true;
  metricsRegistry.setDefaultLabels({ service });
  // 10 ms resolution: a stalled loop (the 250 ms target) shows in the p99 and max series.
  collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: 10 });
}

/** The text exposition of every series, and its content type, for a scrape. */
export async function scrapeMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}
