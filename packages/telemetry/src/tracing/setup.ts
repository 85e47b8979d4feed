import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { setTracingEnabled } from './state.js';

export interface Tracing {
  /** Exports what is still buffered and stops recording. */
  shutdown(): Promise<void>;
}

/**
 * Starts recording spans with the given processors: the W3C `traceparent` propagator and the
 * AsyncLocalStorage context manager (NodeTracerProvider.register), so the span of a request is
 * the parent of everything awaited inside it.
 */
export function startTracingWith(serviceName: string, spanProcessors: SpanProcessor[]): Tracing {
  const provider = new NodeTracerProvider({ resource: resourceFromAttributes({ 'service.name': serviceName }), spanProcessors });
  provider.register();
  setTracingEnabled(true);
  return {
    async shutdown() {
      setTracingEnabled(false);
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/**
 * Tracing as the environment asks: on, exporting over OTLP/HTTP in batches, when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set — the exporter
 * reads those and `OTEL_EXPORTER_OTLP_HEADERS` itself; otherwise off, costing nothing.
 * `OTEL_SERVICE_NAME` overrides the name the process reports.
 */
export function startTracingFromEnv(serviceName: string, env: Record<string, string | undefined> = process.env): Tracing | undefined {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return undefined;
  return startTracingWith(env.OTEL_SERVICE_NAME?.trim() || serviceName, [new BatchSpanProcessor(new OTLPTraceExporter())]);
}
