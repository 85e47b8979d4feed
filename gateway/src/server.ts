import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import type { Logger } from '@landscreen/rpc';
import gatewayApp from './app.js';
import { DEFAULT_BODY_LIMIT } from './routes/body-limits.js';
import type { ReportRenderingOptions } from './reports/render-pool.js';
import type { GatewayDeps } from './routes/index.js';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export interface GatewayServerOptions {
  deps: GatewayDeps;
  logger: Logger;
  /** PDF rendering's worker pool and budgets (config.reports); defaults otherwise. */
  reports?: Partial<ReportRenderingOptions>;
}

/** Builds the gateway: the Fastify instance with logging, timeouts and the app plugin. */
export async function createGateway(options: GatewayServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger as FastifyBaseLogger,
    // One structured line per request is written by the app's onResponse hook instead.
    logController: new LogController({ disableRequestLogging: true }),
    // Honour a caller's request id so one id follows a request across systems.
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Path values are validated by the routes (D1: a 256-character buy-box name is 422
    // string_too_long); the router must not refuse them first.
    routerOptions: { maxParamLength: 65_536 },
    // A malformed URL (a bad percent-escape) is a client error with the D2 body.
    frameworkErrors: (error, _request, reply) => {
      void (reply as FastifyReply).code(400).send({ detail: `The request URL is malformed: ${error.message}`, code: 'bad_url' });
    },
    // Errors Node raises before a request exists (headers too large, broken framing) also get D2.
    clientErrorHandler: (error: NodeJS.ErrnoException & { code?: string }, socket) => {
      if (!socket.writable) return socket.destroy();
      const [status, reason] = error.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large'] : [400, 'Bad Request'];
      const body = JSON.stringify({ detail: status === 431 ? 'The request headers are too large.' : 'The request is malformed.', code: status === 431 ? 'headers_too_large' : 'bad_request' });
      socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    },
    // Each route sets its own (routes/body-limits.ts); this covers what no route declares.
    bodyLimit: DEFAULT_BODY_LIMIT,
    connectionTimeout: 0,
    keepAliveTimeout: 72_000,
    requestTimeout: 120_000,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });
  await app.register(gatewayApp, { deps: options.deps, reports: options.reports });
  return app;
}
