// Runs (D35) in the distributed shape: every service on its own port, the gateway reaching the
// catalog service over Connect (binary), a runs worker beside them — so the run messages, the
// billing status and the paged results cross a real network hop.

import type { Transport } from '@connectrpc/connect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRunsWorker, type RunsWorker } from '@landscreen/catalog-service';
import { createModules } from '@landscreen/runtime';
import { loadConfig, type ServiceName } from '@landscreen/config';
import { createMemoryBus, type EventBus } from '@landscreen/events';
import { createGateway, createServiceClients } from '@landscreen/gateway';
import { createLogger, deferredTransport, networkTransport, serveServices, systemClock, type ServedServices, type ServiceModule } from '@landscreen/rpc';
import { createTestPostgres, httpClient, type HttpClient, type TestDatabase } from '@landscreen/testing';
import type { FastifyInstance } from 'fastify';
import { headersOf, loadSubstations, locations, ndjsonResults, parseCsv, resultsFile, RUN_FIELDS, settledRun, tenantOnPlan } from '../support/runs.js';

describe('runs through the gateway → catalog service hop', () => {
  let database: TestDatabase;
  let bus: EventBus;
  let modules: ServiceModule[];
  const served = new Map<ServiceName, ServedServices>();
  let gateway: FastifyInstance;
  let worker: RunsWorker;
  let client: HttpClient & { url: string };
  const TENANT = 'runs-net';

  beforeAll(async () => {
    database = await createTestPostgres();
    const config = loadConfig({}, { logLevel: 'silent', databaseUrl: database.url, authDev: true, runs: { embedded: false, chunkSize: 200, leaseSeconds: 30, concurrency: 2 } });
    const logger = createLogger('silent');
    const peers = new Map<ServiceName, Transport>();
    const peer = (name: ServiceName) =>
      deferredTransport(() => {
        if (!peers.has(name)) peers.set(name, networkTransport(`http://127.0.0.1:${served.get(name)!.port}`));
        return peers.get(name)!;
      });
    bus = createMemoryBus();
    modules = createModules({ db: database.db, bus, clock: systemClock, config, logger, peer });
    for (const module of modules) {
      served.set(module.name, await serveServices([module], { host: '127.0.0.1', port: 0 }));
      await module.start?.();
    }
    gateway = await createGateway({ deps: { clients: createServiceClients((name) => networkTransport(`http://127.0.0.1:${served.get(name)!.port}`)), build: 'test', clock: systemClock }, logger });
    const url = await gateway.listen({ host: '127.0.0.1', port: 0 });
    client = { ...httpClient(url), url };
    worker = await startRunsWorker({ db: database.db, bus, clock: systemClock, logger, discovery: () => peer('discovery'), leaseMs: 30_000, concurrency: 2 });
    await loadSubstations(database.db);
    await tenantOnPlan(client, database.db, TENANT, 'growth');
  });

  afterAll(async () => {
    await worker?.stop();
    await gateway?.close();
    for (const module of modules ?? []) await module.stop?.();
    for (const server of served.values()) await server.close();
    await bus?.close();
    await database?.close();
  });

  it('submits, reports, streams and cancels over the network', async () => {
    const points = locations(1_234, 21);
    const submitted = await client.post('/v1/runs', { locations: points, fields: RUN_FIELDS }, { headers: { ...headersOf(TENANT), 'idempotency-key': 'net-1' } });
    expect(submitted.status).toBe(202);
    expect(submitted.headers.get('x-credits-charged')).toBe(String(3 * 1_234));
    const run = await settledRun(client, TENANT, submitted.body.run_id);
    expect(run).toMatchObject({ status: 'succeeded', progress: { done: 1_234, total: 1_234 }, credits: { per_location: 3, charged: 3_702, refunded: 0 } });
    const results = await ndjsonResults(client, TENANT, run.run_id);
    expect(results.map((result) => result.id)).toEqual(points.map((point) => point.id));
    const csv = parseCsv((await resultsFile(client.url, TENANT, run.run_id, 'csv')).text);
    expect(csv).toHaveLength(1 + 1_234);

    const replay = await client.post('/v1/runs', { locations: points, fields: RUN_FIELDS }, { headers: { ...headersOf(TENANT), 'idempotency-key': 'net-1' } });
    expect(replay.body.run_id).toBe(run.run_id);
    expect(replay.headers.get('x-credits-charged')).toBe('0');

    const listed = await client.get('/v1/runs', { headers: headersOf(TENANT) });
    expect(listed.body.runs.map((entry: any) => entry.run_id)).toEqual([run.run_id]);
    const cancelled = await client.request('DELETE', `/v1/runs/${run.run_id}`, { headers: headersOf(TENANT) });
    expect(cancelled.body).toMatchObject({ status: 'succeeded', credits: { refunded: 0 } });
    expect((await client.get(`/v1/runs/${run.run_id}`, { headers: headersOf('runs-net-other') })).status).toBe(404);
  });
});
