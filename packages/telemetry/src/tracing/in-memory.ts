import type { ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { startTracingWith } from './setup.js';

export interface InMemoryTracing {
  /** Every span ended so far. */
  spans(): ReadableSpan[];
  shutdown(): Promise<void>;
}

/** Tracing on, each span kept in memory as it ends: what tests read a trace from. */
export async function startInMemoryTracing(serviceName = 'landscreen-test'): Promise<InMemoryTracing> {
  const { InMemorySpanExporter, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace-node');
  const exporter = new InMemorySpanExporter();
  const tracing = await startTracingWith(serviceName, [new SimpleSpanProcessor(exporter)]);
  return { spans: () => exporter.getFinishedSpans(), shutdown: () => tracing.shutdown() };
}
