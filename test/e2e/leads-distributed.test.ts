import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transport } from '@connectrpc/connect';
import { loadConfig, type ServiceName } from '@landscreen/config';
import { createModules } from '@landscreen/runtime';
import { connectNatsBus, type EventBus } from '@landscreen/events';
import { createGateway, createServiceClients } from '@landscreen/gateway';
import { createLogger, deferredTransport, networkTransport, serveServices, systemClock, type ServedServices, type ServiceModule } from '@landscreen/rpc';
import { createTestPostgres, entitleTenant, httpClient, loadMarket, type TestDatabase } from '@landscreen/testing';
import type { FastifyInstance } from 'fastify';
import { waitFor } from '../../packages/events/src/test-wait.js';
import { startPrivateNats, type PrivateNats } from './relay-harness.js';
import { LEAD_PARCELS, LEAD_SPEC } from './leads-fixture.js';

const ACME = { authorization: 'Bearer dev:ann@acme.test', 'x-tenant': 'acme' };

/**
 * D30 in the distributed shape: every service on its own port with its background work started
 * (the pipeline's outbox relay and lead worker), NATS JetStream between them, the gateway reaching
 * them over the network. The worker ranks through discovery over Connect; the import's batched
 * resolution crosses the network as one call.
 */
describe('lead requests and import with services over the network', () => {
  let database: TestDatabase;
  let nats: PrivateNats;
  let bus: EventBus;
  let modules: ServiceModule[];
  const served = new Map<ServiceName, ServedServices>();
  let gateway: FastifyInstance;
  let client: ReturnType<typeof httpClient>;

  beforeAll(async () => {
    database = await createTestPostgres();
    nats = await startPrivateNats();
    bus = await connectNatsBus(nats.url, { name: 'leads-distributed' });
    const config = loadConfig({}, { logLevel: 'silent', databaseUrl: database.url, relay: { pollMs: 20, batchSize: 500, retentionHours: 168 } });
    const logger = createLogger('silent');
    const peers = new Map<ServiceName, Transport>();
    const peer = (name: ServiceName) =>
      deferredTransport(() => {
        if (!peers.has(name)) peers.set(name, networkTransport(`http://127.0.0.1:${served.get(name)!.port}`));
        return peers.get(name)!;
      });
    modules = createModules({ db: database.db, bus, clock: systemClock, config, logger, peer });
    for (const module of modules) served.set(module.name, await serveServices([module], { host: '127.0.0.1', port: 0 }));
    for (const module of modules) await module.start?.();
    const clients = createServiceClients((name) => networkTransport(`http://127.0.0.1:${served.get(name)!.port}`));
    gateway = await createGateway({ deps: { clients, build: 'test', clock: systemClock }, logger });
    client = httpClient(await gateway.listen({ host: '127.0.0.1', port: 0 }));
    expect((await client.get('/v1/me', { headers: ACME })).status).toBe(200);
    await loadMarket(database.db, 'lead-tx', LEAD_PARCELS);
    await entitleTenant(database.db, 'acme', 'lead-tx');
    expect((await client.post('/v1/buyboxes', { name: 'DC', spec: LEAD_SPEC }, { headers: ACME })).status).toBe(201);
  });

  afterAll(async () => {
    await gateway?.close();
    for (const module of modules ?? []) await module.stop?.();
    for (const server of served.values()) await server.close();
    await bus?.close();
    await nats?.close();
    await database?.close();
  });

  it('fulfils a lead request through the pipeline process\'s worker', async () => {
    const ranked = (await client.post('/v2/discovery/query', { buy_box: 'DC', limit: 200 }, { headers: ACME })).body.results.map((row: any) => row.parcel_key);
    const created = await client.post('/v1/lead-requests', { buy_box: 'DC', count: 4 }, { headers: ACME });
    expect(created.status).toBe(201);
    let done: any;
    await waitFor(async () => {
      done = (await client.get('/v1/lead-requests', { headers: ACME })).body.lead_requests.find((row: any) => row.id === created.body.id && row.status !== 'open');
      return done !== undefined;
    }, 'the lead request to be handled');
    expect(done.status).toBe('fulfilled');
    const delivery = await client.get(`/v1/deliveries/${done.delivery_id}`, { headers: ACME });
    expect(delivery.body.leads.map((lead: any) => lead.parcel_key)).toEqual(ranked.slice(0, 4));
  });

  it('imports rows, one resolution call over the network', async () => {
    const rows = [{ apn: 'L-005' }, { address: '6 Lead Road' }, { apn: 'nope' }, {}];
    const imported = await client.post('/v1/leads/import', { market: 'lead-tx', rows, buy_box: 'DC', add_to_pipeline: true }, { headers: ACME });
    expect(imported.status).toBe(201);
    expect(imported.body.rows.map((row: any) => row.status)).toEqual(['resolved', 'resolved', 'not_found', 'invalid']);
    expect(imported.body.rows[0]).toMatchObject({ parcel_key: 'lt-5', pipeline_item_id: expect.any(String), verdict: expect.any(String) });
  });
});
