import { context, propagation, trace } from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { setTracingEnabled } from './state.js';

export interface Tracing {
  /** Exports what is still buffered and stops recording. */
  shutdown(): Promise<void>;
}

/**
 * Starts recording spans with the given processors: the W3C `traceparent` propagator and the
 * AsyncLocalStorage context manager (NodeTracerProvider.register), so the span of a request is
 * the parent of everything awaited inside it. The SDK is loaded here, only when tracing is
 * turned on: a process without it (every CLI command) does not pay its load time.
 */
export async function startTracingWith(serviceName: string, spanProcessors: SpanProcessor[]): Promise<Tracing> {
  const [{ NodeTracerProvider }, { resourceFromAttributes }] = await Promise.all([import('@opentelemetry/sdk-trace-node'), import('@opentelemetry/resources')]);
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
export async function startTracingFromEnv(serviceName: string, env: Record<string, string | undefined> = process.env): Promise<Tracing | undefined> {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return undefined;
  const [{ BatchSpanProcessor }, { OTLPTraceExporter }] = await Promise.all([import('@opentelemetry/sdk-trace-node'), import('@opentelemetry/exporter-trace-otlp-http')]);
  return startTracingWith(env.OTEL_SERVICE_NAME?.trim() || serviceName, [new BatchSpanProcessor(new OTLPTraceExporter())]);
}
