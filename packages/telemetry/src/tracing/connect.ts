import { SpanKind } from '@opentelemetry/api';
import type { Interceptor } from '@connectrpc/connect';
import { extractTraceHeaders, injectTraceHeaders } from './carrier.js';
import { inSpan } from './spans.js';
import { tracingEnabled } from './state.js';

const attributes = (service: string, method: string) => ({ 'rpc.system': 'connect_rpc', 'rpc.service': service, 'rpc.method': method });

/**
 * A caller's span around each Connect call, its `traceparent` sent in the request headers so the
 * service's span joins the same trace (over HTTP/2 and in-process alike).
 */
export const tracingClientInterceptor: Interceptor = (next) => (request) => {
  if (!tracingEnabled()) return next(request);
  const { typeName } = request.service;
  const name = request.method.name;
  return inSpan(`${typeName}/${name}`, { kind: SpanKind.CLIENT, attributes: attributes(typeName, name) }, async () => {
    injectTraceHeaders(request.header);
    return next(request);
  });
};

/** The service's span for a call, a child of the caller's span named by its `traceparent`. */
export const tracingServerInterceptor: Interceptor = (next) => (request) => {
  if (!tracingEnabled()) return next(request);
  const { typeName } = request.service;
  const name = request.method.name;
  return inSpan(`${typeName}/${name}`, { kind: SpanKind.SERVER, attributes: attributes(typeName, name), parent: extractTraceHeaders(request.header) }, () => next(request));
};
