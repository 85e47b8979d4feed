import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { startProcessMetrics } from '@landscreen/telemetry';
import type { Caller } from '@landscreen/rpc';
import { installErrorHandling, notImplemented } from './errors/index.js';
import { authenticateRequest } from './auth/authenticate.js';
import { registerConsole } from './console/serve-console.js';
import { installJsonBodyParser } from './json-body.js';
import { refuseUnreadableBody } from './media-types.js';
import { installRequestTelemetry, withinRequestSpan } from './request-telemetry.js';
import { buildOpenApiDocument } from './openapi/document.js';
import { registerDocsPage } from './openapi/docs-page.js';
import { DEFAULT_REPORT_RENDERING, ReportRenderer, type ReportRenderingOptions } from './reports/render-pool.js';
import { BODY_LIMITS } from './routes/body-limits.js';
import { ROUTES, type GatewayDeps, type RouteDef } from './routes/index.js';
import { BodyParser } from './validation/body-parser.js';
import { compileRequest } from './validation/index.js';

export interface GatewayAppOptions {
  deps: GatewayDeps;
  /** Defaults to every endpoint of the spec. */
  routes?: RouteDef[];
  /** PDF rendering's worker pool and budgets (defaults: DEFAULT_REPORT_RENDERING). */
  reports?: Partial<ReportRenderingOptions>;
}

/** `/v1/buyboxes/{name}` → `/v1/buyboxes/:name` */
const fastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * The public REST/JSON surface as a Fastify plugin: authentication, validation (D1), errors (D2),
 * every route of the contract, `/openapi.json` and `/docs`. It holds no business rules and no
 * SQL: handlers call the services over Connect. Heavy work (large bodies, PDFs) runs on worker
 * threads it owns and stops with it.
 */
async function gatewayApp(app: FastifyInstance, options: GatewayAppOptions): Promise<void> {
  const routes = options.routes ?? ROUTES;
  const reportOptions = { ...DEFAULT_REPORT_RENDERING, ...options.reports };
  const reports = new ReportRenderer(reportOptions);
  const bodies = new BodyParser({ eager: reportOptions.eager });
  app.addHook('onClose', async () => {
    await Promise.all([reports.close(), bodies.close()]);
  });
  // The runtime's series (event-loop lag, heap) beside the gateway's own; a process that named
  // itself first (`landscreen serve`) keeps its name.
  startProcessMetrics('gateway');
  installErrorHandling(app);
  installJsonBodyParser(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    withinRequestSpan(request, () => request.log.info(
      { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 100) / 100 },
      'request',
    ));
  });
  installRequestTelemetry(app);

  const callers = new WeakMap<FastifyRequest, Caller | undefined>();
  for (const route of routes) {
    const validate = compileRequest(route.request);
    app.route({
      method: route.method,
      url: fastifyPath(route.path),
      bodyLimit: route.bodyLimit ?? (route.request.body ? BODY_LIMITS.standard : BODY_LIMITS.small),
      // Who is calling, and may they, is settled from the headers before the body is read (D39):
      // an anonymous or forbidden caller is answered 401/403 without its body being parsed.
      onRequest: async (request) => {
        callers.set(request, await withinRequestSpan(request, () => authenticateRequest(route, request, options.deps.clients)));
        refuseUnreadableBody(route, request);
      },
      handler: (request, reply) => withinRequestSpan(request, async () => {
        const body = await bodies.prepare(route, request.body, { contentType: request.headers['content-type'], query: (request.query ?? {}) as Record<string, unknown> });
        const valid = validate({ params: request.params, query: request.query, headers: request.headers, body });
        if (!route.handler) throw notImplemented(`${route.method} ${route.path}`);
        const result = await route.handler({ request: valid, caller: callers.get(request), raw: request, reply, deps: options.deps, reports });
        reply.code(result.status);
        if (result.headers) reply.headers(result.headers);
        if (result.cookies) reply.header('set-cookie', result.cookies);
        if (result.json) return reply.type('application/json; charset=utf-8').send(Buffer.from(result.json.buffer, result.json.byteOffset, result.json.byteLength));
        return result.body === undefined ? reply.send() : reply.send(result.body);
      }),
    });
  }

  const document = JSON.stringify(buildOpenApiDocument(routes));
  app.get('/openapi.json', async (_request, reply) => reply.type('application/json; charset=utf-8').send(document));
  await registerDocsPage(app);
  registerConsole(app, { basemapStyleUrl: options.deps.basemapStyleUrl });
}

export default fp(gatewayApp, { name: 'landscreen-gateway', fastify: '5.x' });
