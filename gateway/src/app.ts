import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { installErrorHandling, notImplemented } from './errors/index.js';
import { authenticateRequest } from './auth/authenticate.js';
import { registerConsole } from './console/serve-console.js';
import { installJsonBodyParser } from './json-body.js';
import { buildOpenApiDocument } from './openapi/document.js';
import { registerDocsPage } from './openapi/docs-page.js';
import { BODY_LIMITS } from './routes/body-limits.js';
import { ROUTES, type GatewayDeps, type RouteDef } from './routes/index.js';
import { compileRequest } from './validation/index.js';

export interface GatewayAppOptions {
  deps: GatewayDeps;
  /** Defaults to every endpoint of the spec. */
  routes?: RouteDef[];
}

/** `/v1/buyboxes/{name}` → `/v1/buyboxes/:name` */
const fastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * The public REST/JSON surface as a Fastify plugin: validation (D1), errors (D2), every route of
 * the contract, `/openapi.json` and `/docs`. It holds no business rules and no SQL: handlers call
 * the services over Connect.
 */
async function gatewayApp(app: FastifyInstance, options: GatewayAppOptions): Promise<void> {
  const routes = options.routes ?? ROUTES;
  installErrorHandling(app);
  installJsonBodyParser(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 100) / 100 },
      'request',
    );
  });

  for (const route of routes) {
    const validate = compileRequest(route.request);
    app.route({
      method: route.method,
      url: fastifyPath(route.path),
      bodyLimit: route.bodyLimit ?? (route.request.body ? BODY_LIMITS.standard : BODY_LIMITS.small),
      handler: async (request, reply) => {
        // D1 first (a malformed request is 422 whoever sends it), then who is calling, then the work.
        const body = route.decodeBody ? route.decodeBody(request) : request.body;
        const valid = validate({ params: request.params, query: request.query, headers: request.headers, body });
        const caller = await authenticateRequest(route, request, options.deps.clients);
        if (!route.handler) throw notImplemented(`${route.method} ${route.path}`);
        const result = await route.handler({ request: valid, caller, raw: request, reply, deps: options.deps });
        reply.code(result.status);
        if (result.headers) reply.headers(result.headers);
        if (result.cookies) reply.header('set-cookie', result.cookies);
        if (result.json) return reply.type('application/json; charset=utf-8').send(Buffer.from(result.json.buffer, result.json.byteOffset, result.json.byteLength));
        return result.body === undefined ? reply.send() : reply.send(result.body);
      },
    });
  }

  const document = JSON.stringify(buildOpenApiDocument(routes));
  app.get('/openapi.json', async (_request, reply) => reply.type('application/json; charset=utf-8').send(document));
  await registerDocsPage(app);
  registerConsole(app, { basemapStyleUrl: options.deps.basemapStyleUrl });
}

export default fp(gatewayApp, { name: 'landscreen-gateway', fastify: '5.x' });
