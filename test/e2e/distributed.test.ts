import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { SERVICE_NAMES, loadConfig, type ServiceName } from '@landscreen/config';
import { createModules } from '@landscreen/cli';
import { createMemoryBus } from '@landscreen/events';
import { createGateway, createServiceClients } from '@landscreen/gateway';
import { authv1 } from '@landscreen/proto';
import { createLogger, networkTransport, serveServices, systemClock, type ServedServices } from '@landscreen/rpc';
import { createTestPostgres, httpClient, type TestDatabase } from '@landscreen/testing';
import type { FastifyInstance } from 'fastify';

/**
 * The distributed shape on one machine: every service served on its own port (Connect, gRPC),
 * the gateway reaching them over the network, real PostgreSQL underneath.
 */
describe('services over the network', () => {
  let database: TestDatabase;
  const served = new Map<ServiceName, ServedServices>();
  let gateway: FastifyInstance;
  let client: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    database = await createTestPostgres();
    const config = loadConfig({}, { logLevel: 'silent', databaseUrl: database.url });
    const logger = createLogger('silent');
    const peer = (name: ServiceName) => networkTransport(`http://127.0.0.1:${served.get(name)!.port}`);
    const modules = createModules({ db: database.db, bus: createMemoryBus(), clock: systemClock, config, logger, peer });
    for (const module of modules) served.set(module.name, await serveServices([module], { host: '127.0.0.1', port: 0 }));
    const clients = createServiceClients((name) => networkTransport(`http://127.0.0.1:${served.get(name)!.port}`));
    gateway = await createGateway({ deps: { clients, build: 'test' }, logger });
    client = httpClient(await gateway.listen({ host: '127.0.0.1', port: 0 }));
  });

  afterAll(async () => {
    await gateway?.close();
    for (const server of served.values()) await server.close();
    await database?.close();
  });

  it('answers /readyz through the gateway → service hop', async () => {
    const response = await client.get('/readyz');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.services).sort()).toEqual([...SERVICE_NAMES].sort());
  });

  it('speaks gRPC as well as Connect', async () => {
    const auth = createClient(authv1.AuthService, createGrpcTransport({ baseUrl: `http://127.0.0.1:${served.get('auth')!.port}` }));
    const health = await auth.health({});
    expect(health.ready).toBe(true);
    expect(health.schema).toBe('auth');
  });

  it('is not ready, naming the service, when one service is down', async () => {
    await served.get('catalog')!.close();
    const response = await client.get('/readyz');
    expect(response.status).toBe(503);
    expect(response.body.code).toBe('not_ready');
    expect(response.body.detail).toMatch(/^catalog: unreachable/);
    expect(response.body.services.auth.ready).toBe(true);
  });
});
