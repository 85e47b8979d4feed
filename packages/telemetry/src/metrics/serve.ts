import http from 'node:http';
import { metricsScrapeAllowed } from './authorize.js';
import { scrapeMetrics } from './registry.js';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * `GET /metrics` on its own HTTP/1.1 port, for the processes whose own port cannot serve it: a
 * service speaks cleartext HTTP/2 only (Prometheus scrapes HTTP/1.1), and the workers listen on
 * nothing. Everything else answers 404.
 */
export async function serveMetrics(options: { host: string; port: number; token?: string }): Promise<MetricsServer> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ detail: 'Only GET /metrics is served here.', code: 'not_found' }));
      return;
    }
    if (!metricsScrapeAllowed(request.headers.authorization, options.token)) {
      response.writeHead(401, { 'content-type': 'application/json; charset=utf-8', 'www-authenticate': 'Bearer' }).end(JSON.stringify({ detail: 'The metrics need Authorization: Bearer <METRICS_TOKEN>.', code: 'unauthenticated' }));
      return;
    }
    scrapeMetrics().then(
      ({ contentType, body }) => response.writeHead(200, { 'content-type': contentType }).end(body),
      () => response.writeHead(500, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ detail: 'The metrics could not be collected.', code: 'internal' })),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
