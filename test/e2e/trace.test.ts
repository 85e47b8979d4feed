// One trace from the gateway through Connect to a service and across NATS to a consumer: a run
// posted over HTTP is traced through the gateway's span, its Connect call to the catalog service
// over HTTP/2 (W3C `traceparent` in the Connect headers), the chunk relay's publish to JetStream
// (`traceparent` in the NATS message headers, restored from the run row) and the runs worker's
// handling of each chunk. The same holds in the embedded shape (in-process hop, in-process bus).
// And the gateway's log line for the request carries the trace id.

import { Writable } from 'node:stream';
import type { Transport } from '@connectrpc/connect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRunsWorker, type RunsWorker } from '@landscreen/catalog-service';
import { createModules } from '@landscreen/runtime';
import { loadConfig, type ServiceName } from '@landscreen/config';
import type { EventBus } from '@landscreen/events';
import { createGateway, createServiceClients } from '@landscreen/gateway';
import { createLogger, deferredTransport, networkTransport, serveServices, systemClock, type ServedServices, type ServiceModule } from '@landscreen/rpc';
import { startInMemoryTracing, type InMemoryTracing } from '@landscreen/telemetry';
import { createTestPostgres, httpClient, startTestStack, type HttpClient, type TestDatabase, type TestStack } from '@landscreen/testing';
import type { FastifyInstance } from 'fastify';
import { waitFor } from '../../packages/events/src/test-wait.js';
import { connectTestBus, startPrivateNats, type PrivateNats } from './relay-harness.js';
import { headersOf, loadSubstations, locations, RUN_FIELDS, settledRun, tenantOnPlan } from '../support/runs.js';

type Span = ReturnType<InMemoryTracing['spans']>[number];

// SpanKind of @opentelemetry/api, by number, as the exported spans carry it.
const SERVER = 1;
const CLIENT = 2;
const PRODUCER = 3;
const CONSUMER = 4;

/** The spans of one run, from the gateway's span of its POST on, once its chunks were handled. */
async function traceOfRun(tracing: InMemoryTracing, chunks: number): Promise<{ root: Span; spans: Span[] }> {
  const root = tracing.spans().find((span) => span.name === 'POST /v1/runs' && span.kind === SERVER);
  expect(root, 'the gateway span of POST /v1/runs').toBeDefined();
  const traceId = root!.spanContext().traceId;
  const inTrace = () => tracing.spans().filter((span) => span.spanContext().traceId === traceId);
  await waitFor(() => inTrace().filter((span) => span.name === 'runs.chunk.ready process').length >= chunks);
  return { root: root!, spans: inTrace() };
}

/** `child`'s parent span id is `parent`'s span id. */
const parentOf = (child: Span) => child.parentSpanContext?.spanId;

function expectOneTraceThroughEveryHop(root: Span, spans: Span[], chunks: number): void {
  const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
  const client = spans.find((span) => span.kind === CLIENT && span.name === 'landscreen.catalog.v1.CatalogService/CreateRun');
  const service = spans.find((span) => span.kind === SERVER && span.name === 'landscreen.catalog.v1.CatalogService/CreateRun');
  expect(client, 'the gateway\'s Connect call').toBeDefined();
  expect(service, 'the catalog service\'s span').toBeDefined();
  expect(parentOf(service!)).toBe(client!.spanContext().spanId);
  // The client span hangs under the request's span (possibly through other client spans: auth).
  let ancestor: Span | undefined = client;
  while (ancestor && ancestor !== root) ancestor = byId.get(parentOf(ancestor) ?? '');
  expect(ancestor, 'the Connect call is inside the request\'s span').toBe(root);

  const publishes = spans.filter((span) => span.kind === PRODUCER && span.name === 'runs.chunk.ready publish');
  const handled = spans.filter((span) => span.kind === CONSUMER && span.name === 'runs.chunk.ready process');
  expect(publishes).toHaveLength(chunks);
  expect(handled.length).toBeGreaterThanOrEqual(chunks);
  for (const publish of publishes) expect(parentOf(publish)).toBe(service!.spanContext().spanId);
  const publishIds = new Set(publishes.map((span) => span.spanContext().spanId));
  for (const consumer of handled) expect(publishIds.has(parentOf(consumer)!)).toBe(true);
}

/** A logger whose JSON lines are kept, to read back. */
function capturedLogger() {
  const lines: any[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger('info', 'trace-test', stream), lines };
}

describe('one trace: gateway → Connect over HTTP/2 → catalog service → NATS JetStream → runs worker', () => {
  let tracing: InMemoryTracing;
  let nats: PrivateNats;
  let database: TestDatabase;
  let bus: EventBus;
  let modules: ServiceModule[];
  const served = new Map<ServiceName, ServedServices>();
  let gateway: FastifyInstance;
  let worker: RunsWorker;
  let client: HttpClient;
  const log = capturedLogger();
  const TENANT = 'trace-net';

  beforeAll(async () => {
    tracing = await startInMemoryTracing();
    nats = await startPrivateNats();
    bus = await connectTestBus(nats.url, 'trace-test');
    database = await createTestPostgres();
    const config = loadConfig({}, { logLevel: 'silent', databaseUrl: database.url, authDev: true, relay: { pollMs: 20, batchSize: 100, retentionHours: 168 }, runs: { embedded: false, chunkSize: 10, leaseSeconds: 30, concurrency: 2 } });
    const silent = createLogger('silent');
    const peers = new Map<ServiceName, Transport>();
    const peer = (name: ServiceName) =>
      deferredTransport(() => {
        if (!peers.has(name)) peers.set(name, networkTransport(`http://127.0.0.1:${served.get(name)!.port}`));
        return peers.get(name)!;
      });
    modules = createModules({ db: database.db, bus, clock: systemClock, config, logger: silent, peer });
    for (const module of modules) {
      served.set(module.name, await serveServices([module], { host: '127.0.0.1', port: 0 }));
      await module.start?.();
    }
    gateway = await createGateway({ deps: { clients: createServiceClients((name) => networkTransport(`http://127.0.0.1:${served.get(name)!.port}`)), build: 'test', clock: systemClock }, logger: log.logger });
    client = httpClient(await gateway.listen({ host: '127.0.0.1', port: 0 }));
    worker = await startRunsWorker({ db: database.db, bus, clock: systemClock, logger: silent, discovery: () => peer('discovery'), leaseMs: 30_000, concurrency: 2 });
    await loadSubstations(database.db);
    await tenantOnPlan(client, database.db, TENANT, 'growth');
  });

  afterAll(async () => {
    await worker?.stop();
    await gateway?.close();
    for (const module of modules ?? []) await module.stop?.();
    for (const server of served.values()) await server.close();
    await bus?.close();
    await nats?.close();
    await database?.close();
    await tracing?.shutdown();
  });

  it('joins the gateway, the service and the NATS consumer in one trace, and logs its id', async () => {
    const submitted = await client.post('/v1/runs', { locations: locations(25, 5), fields: RUN_FIELDS }, { headers: headersOf(TENANT) });
    expect(submitted.status).toBe(202);
    expect(await settledRun(client, TENANT, submitted.body.run_id)).toMatchObject({ status: 'succeeded' });

    const { root, spans } = await traceOfRun(tracing, 3);
    expectOneTraceThroughEveryHop(root, spans, 3);

    const line = log.lines.find((entry) => entry.msg === 'request' && entry.method === 'POST' && entry.url === '/v1/runs');
    expect(line?.trace_id).toBe(root.spanContext().traceId);
  });
});

describe('one trace in the embedded shape: gateway → in-process Connect hop → catalog → in-process bus → runs worker', () => {
  let tracing: InMemoryTracing;
  let app: TestStack;
  const TENANT = 'trace-embedded';

  beforeAll(async () => {
    tracing = await startInMemoryTracing();
    app = await startTestStack('pglite', { runsWorker: true, config: { relay: { pollMs: 20, batchSize: 100, retentionHours: 168 }, runs: { embedded: true, chunkSize: 10, leaseSeconds: 30, concurrency: 2 } } });
    await loadSubstations(app.stack.database.db);
    await tenantOnPlan(app, app.stack.database.db, TENANT, 'growth');
  });
  afterAll(async () => {
    await app?.close();
    await tracing?.shutdown();
  });

  it('joins the gateway, the service and the bus consumer in one trace', async () => {
    const submitted = await app.post('/v1/runs', { locations: locations(25, 9), fields: RUN_FIELDS }, { headers: headersOf(TENANT) });
    expect(submitted.status).toBe(202);
    expect(await settledRun(app, TENANT, submitted.body.run_id)).toMatchObject({ status: 'succeeded' });
    const { root, spans } = await traceOfRun(tracing, 3);
    expectOneTraceThroughEveryHop(root, spans, 3);
  });
});
