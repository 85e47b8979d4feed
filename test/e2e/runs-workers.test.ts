// Asynchronous runs (D35) on PostgreSQL and real NATS JetStream: the runs worker as separate
// processes (`landscreen serve --runs-worker`), one SIGKILLed mid-run; cancel and refund racing a
// worker; a run that fails; results before the run has finished.

import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startRunsWorker, type RunsWorker } from '@landscreen/catalog-service';
import { scopeBus, type EventBus } from '@landscreen/events';
import { createLogger, networkTransport, systemClock } from '@landscreen/rpc';
import { startTestStack, type TestDatabase, type TestStack } from '@landscreen/testing';
import { sleep, waitFor } from '../../packages/events/src/test-wait.js';
import { spawnLandscreen } from '../support/cli-process.js';
import { connectTestBus, startPrivateNats, type PrivateNats } from './relay-harness.js';
import { batchResults, headersOf, loadSubstations, locations, ndjsonResults, parseCsv, resultsFile, RUN_FIELDS, settledRun, tenantOnPlan, usage } from '../support/runs.js';

/** `landscreen serve --runs-worker` as a process of its own; resolves once it consumes. */
function startWorkerProcess(env: Record<string, string>): { child: ChildProcess; ready: Promise<void> } {
  const child = spawnLandscreen(['serve', '--runs-worker'], env);
  const ready = new Promise<void>((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk) => {
      buffer += chunk;
      if (buffer.includes('runs worker is up')) resolve();
    });
    child.stderr!.on('data', (chunk) => (buffer += chunk));
    child.on('exit', (code) => reject(new Error(`runs worker exited with ${code}:\n${buffer}`)));
  });
  return { child, ready };
}

const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

describe('runs on PostgreSQL and NATS with worker processes', () => {
  let nats: PrivateNats;
  let bus: EventBus;
  let app: TestStack;
  const workers: ChildProcess[] = [];
  const TENANT = 'runs-nats';
  const points = locations(20_000, 7);
  // The stack's bus and the worker processes' under one scope that BUS_SCOPE names.
  const BUS_SCOPE = 'runs-e2e';

  beforeAll(async () => {
    nats = await startPrivateNats();
    bus = scopeBus(await connectTestBus(nats.url, 'stack'), BUS_SCOPE);
    app = await startTestStack('postgres', {
      bus,
      config: { relay: { pollMs: 20, batchSize: 500, retentionHours: 168 }, runs: { embedded: false, chunkSize: 1_000, leaseSeconds: 3, concurrency: 1 } },
    });
    await loadSubstations(app.stack.database.db);
    await tenantOnPlan(app, app.stack.database.db, TENANT, 'scale');
  });
  afterAll(async () => {
    for (const child of workers) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(workers.map(exited));
    await app?.close();
    await bus?.close();
    await nats?.close();
  });

  it('answers every location of a 20,000-location run exactly once, as /v1/fetch/batch does, though a worker is killed mid-run', async () => {
    const env = {
      DATABASE_URL: (app.stack.database as TestDatabase).url,
      NATS_URL: nats.url,
      BUS_SCOPE,
      RUNS_LEASE_SECONDS: '3',
      RUNS_WORKER_CONCURRENCY: '1',
      LOG_LEVEL: 'info',
    };
    const first = startWorkerProcess(env);
    const second = startWorkerProcess(env);
    workers.push(first.child, second.child);
    await Promise.all([first.ready, second.ready]);

    const submitted = await app.post('/v1/runs', { locations: points, fields: RUN_FIELDS }, { headers: headersOf(TENANT) });
    expect(submitted.status).toBe(202);
    const runId = submitted.body.run_id;
    const db = app.stack.database.db;

    // Kill the first worker while it holds a chunk: frozen (SIGSTOP) while the database is asked
    // whether it holds a live lease, so what the answer says is still true when SIGKILL lands.
    const holder = `-${first.child.pid}-`;
    await waitFor(async () => {
      const { rows } = await sql<{ done: number }>`
        select count(*)::int as done from catalog.run_chunks where run_id = ${runId} and status = 'done'`.execute(db);
      return rows[0].done >= 2;
    }, 'two chunks done');
    let held: { chunk_no: number; lease_token: string } | undefined;
    while (!held) {
      first.child.kill('SIGSTOP');
      const { rows } = await sql<{ chunk_no: number; lease_token: string }>`
        select chunk_no, lease_token from catalog.run_chunks
        where run_id = ${runId} and status = 'pending' and lease_expires_at > now() and lease_holder like ${`%${holder}%`}`.execute(db);
      if (rows[0]) {
        held = rows[0];
        first.child.kill('SIGKILL');
      } else {
        first.child.kill('SIGCONT');
        await sleep(20);
      }
    }
    await exited(first.child);

    const run = await settledRun(app, TENANT, runId);
    expect(run).toMatchObject({ status: 'succeeded', progress: { done: 20_000, total: 20_000 }, credits: { charged: 60_000, refunded: 0 } });

    // Every chunk written once, with one line per location; the dead worker's chunk was leased
    // again once its lease had expired, and written by the other worker.
    const { rows: chunks } = await sql<{ chunk_no: number; size: number; attempts: number; lines: number; lease_holder: string }>`
      select chunk_no, size, attempts, lease_holder, array_length(string_to_array(rtrim(results, E'\\n'), E'\\n'), 1) as lines
      from catalog.run_chunks where run_id = ${runId} and status = 'done' order by chunk_no`.execute(db);
    expect(chunks).toHaveLength(20);
    expect(chunks.every((chunk) => chunk.lines === chunk.size)).toBe(true);
    const redone = chunks.find((chunk) => chunk.chunk_no === held!.chunk_no)!;
    expect(redone.attempts).toBeGreaterThanOrEqual(2);
    expect(redone.lease_holder).toContain(`-${second.child.pid}-`);

    const results = await ndjsonResults(app, TENANT, runId);
    expect(results.map((result) => result.id)).toEqual(points.map((point) => point.id));
    expect(await batchResults(app, TENANT, points, RUN_FIELDS)).toEqual(results);

    // The files span several pages (about 4 MiB of stored results each): still one valid document.
    const geojson = await resultsFile(app.url, TENANT, runId, 'geojson');
    const collection = JSON.parse(geojson.text);
    expect(collection.features.map((feature: any) => feature.properties.id)).toEqual(points.map((point) => point.id));
    const csv = parseCsv((await resultsFile(app.url, TENANT, runId, 'csv')).text);
    expect(csv.slice(1).map((row) => row[0])).toEqual(points.map((point) => point.id));
  });

  it('loses no location while NATS is down: the chunks wait unpublished and run once it is back', async () => {
    const db = app.stack.database.db;
    const part = points.slice(0, 3_000);
    await nats.server.kill();
    const submitted = await app.post('/v1/runs', { locations: part, fields: RUN_FIELDS }, { headers: headersOf(TENANT) });
    // Submission needs only the database: charged and queued while the bus is away.
    expect(submitted.status).toBe(202);
    const runId = submitted.body.run_id;
    await sleep(500);
    const { rows } = await sql<{ unpublished: number }>`
      select count(*)::int as unpublished from catalog.run_chunks where run_id = ${runId} and published_at is null`.execute(db);
    expect(rows[0].unpublished).toBe(3);
    await nats.server.start();
    const run = await settledRun(app, TENANT, runId);
    expect(run).toMatchObject({ status: 'succeeded', progress: { done: 3_000, total: 3_000 } });
    expect((await ndjsonResults(app, TENANT, runId)).map((result) => result.id)).toEqual(part.map((point) => point.id));
  });
});

describe('stopping a run on PostgreSQL: cancel, refund, failure', () => {
  let app: TestStack;
  const TENANT = 'runs-cancel';
  const CHUNK = 100;
  let worker: RunsWorker | undefined;

  beforeAll(async () => {
    app = await startTestStack('postgres', { config: { relay: { pollMs: 20, batchSize: 500, retentionHours: 168 }, runs: { embedded: false, chunkSize: CHUNK, leaseSeconds: 30, concurrency: 1 } } });
    await loadSubstations(app.stack.database.db);
    await tenantOnPlan(app, app.stack.database.db, TENANT, 'growth');
  });
  afterAll(async () => {
    await worker?.stop();
    await app?.close();
  });

  const cancel = (runId: string) => app.request('DELETE', `/v1/runs/${runId}`, { headers: headersOf(TENANT) });

  it('refunds every location of a run no worker has touched, once however often DELETE is called', async () => {
    const before = await usage(app, TENANT);
    const submitted = await app.post('/v1/runs', { locations: locations(1_000, 11), fields: RUN_FIELDS }, { headers: headersOf(TENANT) });
    expect(submitted.status).toBe(202);
    const runId = submitted.body.run_id;
    expect((await usage(app, TENANT)).remaining).toBe(before.remaining - 3_000);

    // No worker runs in this stack: the run stays queued, and has no results yet.
    const early = await resultsFile(app.url, TENANT, runId, 'ndjson');
    expect(early.status).toBe(409);
    expect(JSON.parse(early.text)).toMatchObject({ code: 'run_not_finished' });

    const answers = await Promise.all([cancel(runId), cancel(runId), cancel(runId)]);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ status: 'cancelled', progress: { done: 0, total: 1_000 }, credits: { charged: 3_000, refunded: 3_000 } });
    }
    expect((await cancel(runId)).body.credits.refunded).toBe(3_000);
    const after = await usage(app, TENANT);
    expect(after.remaining).toBe(before.remaining);
    expect(after.by_operation.run ?? 0).toBe((before.by_operation.run ?? 0));
    // A cancelled run answers what it processed: nothing.
    expect(await ndjsonResults(app, TENANT, runId)).toEqual([]);
  });

  it('refunds exactly the locations not processed when a worker is mid-run, and drops the chunk in hand', async () => {
    const before = await usage(app, TENANT);
    let releaseThird!: () => void;
    const thirdHeld = new Promise<void>((resolve) => (releaseThird = resolve));
    let thirdReached!: () => void;
    const reached = new Promise<void>((resolve) => (thirdReached = resolve));
    let completions = 0;
    worker = await startRunsWorker({
      db: app.stack.database.db,
      bus: app.stack.bus,
      clock: systemClock,
      logger: createLogger('silent'),
      leaseMs: 30_000,
      concurrency: 1,
      // The third chunk computed is held before its write, until the run has been cancelled.
      beforeComplete: async () => {
        completions++;
        if (completions === 3) {
          thirdReached();
          await thirdHeld;
        }
      },
    });
    const points = locations(1_000, 12);
    const submitted = await app.post('/v1/runs', { locations: points, fields: RUN_FIELDS }, { headers: headersOf(TENANT) });
    expect(submitted.status).toBe(202);
    const runId = submitted.body.run_id;
    await reached;

    const cancelled = await cancel(runId);
    expect(cancelled.status).toBe(200);
    // Two chunks of 100 were written before the cancel; the other 800 locations are refunded.
    expect(cancelled.body).toMatchObject({ status: 'cancelled', progress: { done: 2 * CHUNK, total: 1_000 }, credits: { charged: 3_000, refunded: 3 * 800 } });
    releaseThird();
    await sleep(300);

    const run = (await app.get(`/v1/runs/${runId}`, { headers: headersOf(TENANT) })).body;
    expect(run).toMatchObject({ status: 'cancelled', progress: { done: 2 * CHUNK }, credits: { refunded: 2_400 } });
    const after = await usage(app, TENANT);
    expect(after.remaining).toBe(before.remaining - 3 * 2 * CHUNK);
    const results = await ndjsonResults(app, TENANT, runId);
    expect(results.map((result) => result.id)).toEqual(points.slice(0, 2 * CHUNK).map((point) => point.id));
    // The refund is one ledger row naming the run's charge.
    const { rows } = await sql<{ credits: number }>`
      select credits::int from catalog.credit_ledger
      where refund_of = (select charge_ledger_id from catalog.runs where id = ${runId})`.execute(app.stack.database.db);
    expect(rows).toEqual([{ credits: -2_400 }]);
  });

  it('fails a run whose chunk cannot be evaluated, refunding what was not written', async () => {
    await worker?.stop();
    // Parcel fields need discovery's LocateParcels: this worker reaches a port nothing listens on.
    worker = await startRunsWorker({
      db: app.stack.database.db,
      bus: app.stack.bus,
      clock: systemClock,
      logger: createLogger('silent'),
      discovery: () => networkTransport('http://127.0.0.1:9'),
      leaseMs: 30_000,
      concurrency: 1,
      maxAttempts: 2,
    });
    const before = await usage(app, TENANT);
    const submitted = await app.post('/v1/runs', { locations: locations(150, 14), fields: ['parcel_id', ...RUN_FIELDS] }, { headers: headersOf(TENANT) });
    expect(submitted.status).toBe(202);
    const run = await settledRun(app, TENANT, submitted.body.run_id);
    // 303 credits a location (the parcel group's 300 on growth, 3 fields); nothing was written.
    expect(run).toMatchObject({ status: 'failed', progress: { done: 0, total: 150 }, credits: { per_location: 303, charged: 150 * 303, refunded: 150 * 303 } });
    expect(run.error).toContain('could not be evaluated');
    expect((await usage(app, TENANT)).remaining).toBe(before.remaining);
    await worker.stop();
    worker = await startRunsWorker({ db: app.stack.database.db, bus: app.stack.bus, clock: systemClock, logger: createLogger('silent'), leaseMs: 30_000, concurrency: 1 });
  });

  it('answers a finished run as it is and refunds nothing', async () => {
    const submitted = await app.post('/v1/runs', { locations: locations(150, 13), fields: RUN_FIELDS }, { headers: headersOf(TENANT) });
    const run = await settledRun(app, TENANT, submitted.body.run_id);
    expect(run.status).toBe('succeeded');
    const before = await usage(app, TENANT);
    const answer = await cancel(run.run_id);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'succeeded', credits: { refunded: 0 } });
    expect((await usage(app, TENANT)).remaining).toBe(before.remaining);
  });
});
