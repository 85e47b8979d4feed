import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from '@landscreen/rpc';
import gatewayApp from './app.js';
import type { GatewayDeps } from './routes/index.js';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export interface GatewayServerOptions {
  deps: GatewayDeps;
  logger: Logger;
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
    // Buy-box names may be 255 characters; the default of 100 would answer 404 for longer ones.
    routerOptions: { maxParamLength: 1024 },
    bodyLimit: 16 * 1024 * 1024,
    connectionTimeout: 0,
    keepAliveTimeout: 72_000,
    requestTimeout: 120_000,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });
  await app.register(gatewayApp, { deps: options.deps });
  return app;
}
