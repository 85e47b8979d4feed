import http2 from 'node:http2';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { rpcMetricsInterceptor, tracingServerInterceptor } from '@landscreen/telemetry';
import { databaseOutageInterceptor } from './database-outage.js';
import type { ServiceModule } from './module.js';

export interface ServedServices {
  /** The port actually bound (useful with port 0). */
  port: number;
  close(): Promise<void>;
}

/**
 * Serves modules on their own port over cleartext HTTP/2, speaking the Connect, gRPC and gRPC-Web
 * protocols, so that any Connect or gRPC client can reach them.
 */
export async function serveServices(modules: ServiceModule[], options: { host: string; port: number }): Promise<ServedServices> {
  const handler = connectNodeAdapter({
    routes: (router) => {
      for (const module of modules) module.routes(router);
    },
    // Each call is timed and traced (a child of the caller's `traceparent`); a database outage
    // answers Unavailable, as it does in-process (directTransport).
    interceptors: [rpcMetricsInterceptor, tracingServerInterceptor, databaseOutageInterceptor],
    connect: true,
    grpc: true,
    grpcWeb: true,
    // Offer no compression: on a local network it costs more CPU than it saves (clients that
    // send compressed requests are still understood).
    compressMinBytes: Number.MAX_SAFE_INTEGER,
  });
  const server = http2.createServer(handler);
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () =>
      new Promise<void>((resolve) => {
        // Let in-flight calls finish, then end idle sessions so close() can complete.
        server.close(() => resolve());
        for (const session of sessions) session.close();
      }),
  };
}
