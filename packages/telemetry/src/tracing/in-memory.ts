import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { startTracingWith } from './setup.js';

export interface InMemoryTracing {
  /** Every span ended so far. */
  spans(): ReadableSpan[];
  shutdown(): Promise<void>;
}

/** Tracing on, each span kept in memory as it ends: what tests read a trace from. */
export function startInMemoryTracing(serviceName = 'landscreen-test'): InMemoryTracing {
  const exporter = new InMemorySpanExporter();
  const tracing = startTracingWith(serviceName, [new SimpleSpanProcessor(exporter)]);
  return { spans: () => exporter.getFinishedSpans(), shutdown: () => tracing.shutdown() };
}
