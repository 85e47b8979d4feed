import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Transport } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { SERVICE_NAMES, loadConfig, type ServiceName } from '@landscreen/config';
import { createModules } from '@landscreen/runtime';
import { createMemoryBus } from '@landscreen/events';
import { createGateway, createServiceClients } from '@landscreen/gateway';
import { authv1 } from '@landscreen/proto';
import { createLogger, deferredTransport, networkTransport, serveServices, systemClock, type ServedServices } from '@landscreen/rpc';
import { createTestPostgres, entitleTenant, httpClient, loadMarket, type TestDatabase } from '@landscreen/testing';
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
    // Peers are dialled on first use: the services' ports are known only once all are served.
    const peers = new Map<ServiceName, Transport>();
    const peer = (name: ServiceName) =>
      deferredTransport(() => {
        if (!peers.has(name)) peers.set(name, networkTransport(`http://127.0.0.1:${served.get(name)!.port}`));
        return peers.get(name)!;
      });
    const modules = createModules({ db: database.db, bus: createMemoryBus(), clock: systemClock, config, logger, peer });
    for (const module of modules) served.set(module.name, await serveServices([module], { host: '127.0.0.1', port: 0 }));
    const clients = createServiceClients((name) => networkTransport(`http://127.0.0.1:${served.get(name)!.port}`));
    gateway = await createGateway({ deps: { clients, build: 'test', clock: systemClock }, logger });
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

  it('promotes a parcel: the pipeline service asks discovery over the network, errors included', async () => {
    const headers = { authorization: 'Bearer dev:ann@acme.test', 'x-tenant': 'acme' };
    expect((await client.get('/v1/me', { headers })).status).toBe(200);
    const parcels = [
      { geometry: null, properties: { parcel_key: 'net-1', acres: 80 } },
      { geometry: null, properties: { parcel_key: 'net-2', acres: 10 } },
    ];
    await loadMarket(database.db, 'net-tx', parcels);
    await entitleTenant(database.db, 'acme', 'net-tx');
    const spec = { markets: ['net-tx'], must: [{ field: 'acres', op: '>=', value: 50 }], preferred: [{ field: 'acres', op: '>=', value: 70, weight: 1 }], verdict_cutoffs: { pursue: 70, monitor: 40 } };
    const saved = await client.post('/v1/buyboxes', { name: 'big', spec }, { headers });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const ranked = await client.post('/v2/discovery/query', { buy_box: 'big' }, { headers });
    const promoted = await client.post('/v2/pipeline', { parcel_key: 'net-1', buy_box: 'big', query_hash: ranked.body.query_hash }, { headers });
    expect([promoted.status, promoted.body.status]).toEqual([202, 'created']);
    const refused = await client.post('/v2/pipeline', { parcel_key: 'net-2', buy_box: 'big', query_hash: ranked.body.query_hash }, { headers });
    expect([refused.status, refused.body.code, refused.body.failed]).toEqual([409, 'must_failed', [{ field: 'acres', value: 10, status: 'fail' }]]);
    const page = await client.get(`/v1/properties/${promoted.body.property_id}`, { headers });
    expect(page.body.diligence.status).toBe('queued');
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
