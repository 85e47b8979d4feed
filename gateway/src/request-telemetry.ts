import type { FastifyInstance, FastifyRequest } from 'fastify';
import { httpRequestSeconds, startRequestSpan, type RequestSpan } from '@landscreen/telemetry';

const spans = new WeakMap<FastifyRequest, RequestSpan>();

/**
 * Every request is timed into the route-latency histogram (by route pattern, so `/v1/runs/:id`
 * is one series whatever the id) and, with tracing on, gets a server span that its Connect calls
 * join. The span is kept per request and entered explicitly (`withinRequestSpan`) around the
 * route's own work: a hook cannot make Fastify's later steps run inside it, because a body's
 * parsing resumes from the socket's events, outside any context set when the request arrived.
 */
export function installRequestTelemetry(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const span = startRequestSpan(request.method, request.headers);
    if (span) spans.set(request, span);
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    httpRequestSeconds.observe({ method: request.method, route: route ?? 'unmatched', status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    spans.get(request)?.end(reply.statusCode, route);
  });
}

/**
 * Runs a route's work inside its request's span, so the services' spans are its children and its
 * log lines carry the trace id.
 */
export function withinRequestSpan<T>(request: FastifyRequest, work: () => T): T {
  const span = spans.get(request);
  return span ? span.run(work) : work();
}
