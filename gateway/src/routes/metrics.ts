import { metricsScrapeAllowed, scrapeMetrics } from '@landscreen/telemetry';
import { ApiError } from '../errors/index.js';
import { errors, file } from './responses.js';
import type { RouteDef } from './route.js';

/**
 * Prometheus' scrape of this process. Open when no METRICS_TOKEN is configured (the gateway's
 * port is then meant to be reached only by operators and their Prometheus); with one, only
 * `Authorization: Bearer <METRICS_TOKEN>` reads it. It carries no tenant data: series are by route
 * pattern, subject and kind, never by tenant, user or id.
 */
export const metricsRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/metrics',
    operationId: 'metrics',
    summary: 'Prometheus metrics of this process',
    description:
      'The text exposition format: request rate and latency by route pattern, event-loop lag, database pool use and waits, NATS publishes and acks, runs and imports in flight, credits charged and refunded. Needs `Authorization: Bearer <METRICS_TOKEN>` when METRICS_TOKEN is set; open otherwise.',
    tag: 'health',
    security: 'none',
    request: {},
    responses: {
      200: file('The metrics, in the Prometheus text exposition format (`text/plain; version=0.0.4`).', 'text/plain'),
      ...errors([401], { 401: 'unauthenticated: METRICS_TOKEN is set and the request does not carry it as a bearer token.' }),
    },
    handler: async ({ raw, deps }) => {
      if (!metricsScrapeAllowed(raw.headers.authorization, deps.metricsToken)) {
        throw new ApiError(401, 'unauthenticated', 'The metrics need Authorization: Bearer <METRICS_TOKEN>.', {}, { 'www-authenticate': 'Bearer' });
      }
      const { contentType, body } = await scrapeMetrics();
      return { status: 200, body, headers: { 'content-type': contentType } };
    },
  },
];
