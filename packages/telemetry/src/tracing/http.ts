import { context, propagation, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { tracer, tracingEnabled } from './state.js';

type IncomingHeaders = Record<string, string | string[] | undefined>;

/** The server span of one HTTP request, opened when it arrives and ended once it is answered. */
export interface RequestSpan {
  /** Runs `work` with the request's span active: what it calls (Connect, logs) joins its trace. */
  run<T>(work: () => T): T;
  end(status: number, route: string | undefined): void;
}

/**
 * Opens the span of a request, a child of the caller's `traceparent` header when it sends one;
 * undefined (and nothing allocated) when tracing is off.
 */
export function startRequestSpan(method: string, headers: IncomingHeaders): RequestSpan | undefined {
  if (!tracingEnabled()) return undefined;
  const parent = propagation.extract(context.active(), headers, {
    get: (carrier, key) => {
      const value = carrier[key];
      return Array.isArray(value) ? value[0] : value;
    },
    keys: (carrier) => Object.keys(carrier),
  });
  const span: Span = tracer().startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } }, parent);
  const active: Context = trace.setSpan(parent, span);
  return {
    run: (work) => context.with(active, work),
    end(status, route) {
      // Named by the route pattern, as the metrics are: `GET /v1/runs/:id`, never the raw URL.
      if (route) {
        span.updateName(`${method} ${route}`);
        span.setAttribute('http.route', route);
      }
      span.setAttribute('http.response.status_code', status);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}
