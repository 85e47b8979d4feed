import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type EmbeddedStack } from '@landscreen/runtime';
import { loadConfig } from '@landscreen/config';
import { openDatabase, type DatabaseHandle } from '@landscreen/db';
import { createLogger } from '@landscreen/rpc';
import {
  createTestPostgres,
  entitleTenant,
  httpClient,
  loadMarket,
  startTcpProxy,
  TEST_DATABASE_URL,
  withAdminClient,
  type HttpClient,
  type HttpResponse,
  type TcpProxy,
  type TestDatabase,
} from '@landscreen/testing';
import { settledJob } from './worker-harness.js';

const ADMIN = { authorization: 'Bearer dev:ops@outage.test', 'x-tenant': 'outage' };
const SPEC = { markets: ['outage-tx'], must: [], preferred: [{ field: 'acres', op: '>=', value: 50, weight: 1 }], verdict_cutoffs: { pursue: 70, monitor: 40 } };
/** Short on purpose, so a black-holed request fails within seconds (production: 5 s / 30 s / 35 s). */
const TIMEOUTS = { connectTimeoutMs: 1_000, statementTimeoutMs: 2_000, queryTimeoutMs: 2_500, idleTimeoutMs: 10_000, keepAliveMs: 1_000 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Answers `ask()` until it is what `done` wants (the test's timeout bounds the wait), and that answer. */
async function until<T>(ask: () => Promise<T>, done: (answer: T) => boolean): Promise<T> {
  for (;;) {
    const answer = await ask();
    if (done(answer)) return answer;
    await sleep(200);
  }
}

function expectDatabaseUnavailable(response: HttpResponse) {
  expect(response.status).toBe(503);
  expect(response.body).toEqual({ detail: expect.any(String), code: 'database_unavailable' });
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
}

/**
 * The embedded server on PostgreSQL reached through a TCP proxy this test controls, with its
 * worker: connections terminated by the server, reset by the network, or black-holed. The process
 * must stay up, answer 503 `database_unavailable` (never 500) within a bounded time while it
 * lasts, and 200 again within seconds after.
 */
describe('the server survives its database', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let served: DatabaseHandle;
  let stack: EmbeddedStack;
  let app: HttpClient;
  let dataDir: string;
  const crashes: unknown[] = [];
  const onCrash = (error: unknown) => void crashes.push(error);
  let boxes = 0;
  const createBox = () => app.post('/v1/buyboxes', { name: `box-${++boxes}`, spec: SPEC }, { headers: ADMIN });
  const listBoxes = () => app.get('/v1/buyboxes', { headers: ADMIN });

  beforeAll(async () => {
    process.on('uncaughtException', onCrash);
    process.on('unhandledRejection', onCrash);
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-outage-'));
    database = await createTestPostgres();
    const target = new URL(TEST_DATABASE_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    served = await openDatabase({ databaseUrl: proxy.through(database.url), maxConnections: 10, timeouts: TIMEOUTS });
    const config = loadConfig({}, { port: 0, host: '127.0.0.1', dataDir, logLevel: 'silent', authDev: true, relay: { pollMs: 20, batchSize: 500, retentionHours: 168 } });
    stack = await startEmbeddedStack({ config, logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'), database: served, worker: true });
    app = httpClient(stack.url);
    expect((await app.get('/v1/me', { headers: ADMIN })).status).toBe(200);
    await loadMarket(database.db, 'outage-tx', [{ geometry: { type: 'Point', coordinates: [-97.5, 30.1] }, properties: { parcel_key: 'out-1', acres: 80 } }]);
    await entitleTenant(database.db, 'outage', 'outage-tx');
    expect((await createBox()).status).toBe(201);
  });

  afterAll(async () => {
    proxy?.setMode('pass');
    await stack?.close();
    await served?.close();
    await proxy?.close();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
  });

  beforeEach(() => {
    proxy.setMode('pass');
  });

  it('pg_terminate_backend under concurrent reads and writes: every answer 200 or 503, never a crash', async () => {
    const statuses: number[] = [];
    const unavailable: HttpResponse[] = [];
    let running = true;
    const client = async (index: number) => {
      while (running) {
        const response = index % 2 === 0 ? await listBoxes() : await createBox();
        statuses.push(response.status);
        if (response.status === 503) unavailable.push(response);
      }
    };
    const clients = Array.from({ length: 20 }, (_, index) => client(index));
    // Every backend of the server's database, again and again, while the requests run, until
    // requests have met it (however slow the machine).
    let terminated = 0;
    while (terminated === 0 || unavailable.length === 0 || statuses.length <= 20) {
      terminated += await withAdminClient(async (admin) => {
        const { rows } = await admin.query('select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database.name]);
        return rows[0].n as number;
      });
      await sleep(150);
    }
    running = false;
    await Promise.all(clients);

    expect(terminated).toBeGreaterThan(0);
    expect(statuses.length).toBeGreaterThan(20);
    expect(statuses.filter((status) => ![200, 201, 503].includes(status))).toEqual([]);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const response of unavailable) expectDatabaseUnavailable(response);
    expect(crashes).toEqual([]);
    // The pool replaced what it lost: answers are 200 again at once.
    expect((await until(listBoxes, (response) => response.status === 200)).status).toBe(200);
    expect((await createBox()).status).toBe(201);
  });

  it('connections reset by the network: 503 database_unavailable with Retry-After, then 200 once it passes', async () => {
    expect((await listBoxes()).status).toBe(200);
    proxy.setMode('reset');
    expectDatabaseUnavailable(await listBoxes());
    expectDatabaseUnavailable(await createBox());
    proxy.setMode('pass');
    expect((await until(listBoxes, (response) => response.status === 200)).status).toBe(200);
    expect((await createBox()).status).toBe(201);
    expect(crashes).toEqual([]);
  });

  it('a black-holed database: 503 (its timeouts end the wait), /readyz 503 not_ready, then 200 once it heals', async () => {
    expect((await app.get('/readyz')).status).toBe(200);
    // Open connections in the pool: requests then wait on connections that never answer (the
    // client-side query timeout must end it), not only on new ones (the connect timeout).
    await Promise.all(Array.from({ length: 10 }, () => listBoxes()));
    proxy.setMode('blackhole');

    // Black-holed, nothing ever answers: only the timeouts end these waits, so answers at all show
    // that they work (how soon is the timeouts' values, not a bound a shared machine keeps).
    const requests = [listBoxes(), createBox(), listBoxes()];
    const ready = await app.get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.code).toBe('not_ready');
    for (const response of await Promise.all(requests)) expectDatabaseUnavailable(response);

    proxy.setMode('pass');
    expect((await until(listBoxes, (response) => response.status === 200)).status).toBe(200);
    expect((await until(() => app.get('/readyz'), (response) => response.status === 200)).status).toBe(200);
    expect(crashes).toEqual([]);
  });

  it('the outbox relay and the embedded worker carry on after the outages', async () => {
    const promoted = await app.post('/v2/pipeline/direct', { parcel_key: 'out-1', buy_box: 'box-1' }, { headers: ADMIN });
    expect(promoted.status).toBe(202);
    // Written to the outbox, relayed to the bus, driven by the worker over the gateway.
    const job = await settledJob(app, ADMIN, promoted.body.diligence_job_id);
    expect(job.status).not.toBe('queued');
    expect(crashes).toEqual([]);
  });
});
