import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { loadConfig } from '@landscreen/config';
import { startDiligenceWorker, WORKER_DURABLE, type DiligenceWorker } from '@landscreen/diligence-worker';
import type { EventBus } from '@landscreen/events';
import { createLogger, ManualClock } from '@landscreen/rpc';
import { entitleTenant, loadMarket, startTestStack, type TestStack } from '@landscreen/testing';
import { waitFor } from '../../packages/events/src/test-wait.js';
import { connectTestBus, startPrivateNats, unpublishedCount, type PrivateNats } from './relay-harness.js';
import { consumerIdle, readyAnswer, settledJob, startProviderServer, type ProviderServer } from './worker-harness.js';
import { ledgerRows, outboxSubjects } from '../support/diligence.js';

const SECRET = 'worker-suite-shared-secret';
const FACT_STEPS = ['parcel_record', 'point_data', 'hosting_capacity', 'utility_findings', 'owner_contact'];
const point = (lon: number, lat: number) => ({ type: 'Point' as const, coordinates: [lon, lat] });
const PARCELS = Array.from({ length: 8 }, (_, index) => ({
  geometry: point(-97.5 + index * 0.01, 30.1),
  properties: { parcel_key: `wk-${index + 1}`, apn: `W-00${index + 1}`, acres: 100 + index, nearest_substation_distance_m: 900 + index },
}));
const SPEC = { markets: ['wk-tx'], must: [{ field: 'acres', op: '>=', value: 50 }], preferred: [], verdict_cutoffs: { pursue: 70, monitor: 40 } };

const admin = (tenant: string) => ({ authorization: 'Bearer dev:ada@acme.test', 'x-tenant': tenant });

/**
 * The worker over real NATS JetStream (a private server), real PostgreSQL and the gateway over
 * HTTP: promotion writes a job and its event, the relay publishes it, the worker consumes it and
 * drives the job with the legacy worker secret. The five fact steps go to an outside provider
 * over HTTP (the worker credential may not read the property page, D8); the report is built in.
 */
describe('diligence worker on PostgreSQL and NATS', () => {
  let nats: PrivateNats;
  let stackBus: EventBus;
  let workerBus: EventBus;
  let app: TestStack;
  let provider: ProviderServer;
  let worker: DiligenceWorker;
  const clock = new ManualClock();
  let nextParcel = 1;
  /** What the worker logged at warn and above, for the paths only a log line shows. */
  const workerLogs: { msg: string; job?: string; tenant?: string }[] = [];

  /** A tenant entitled to the market with a saved buy box; its first request creates it. */
  async function tenant(slug: string): Promise<void> {
    expect((await app.get('/v1/me', { headers: admin(slug) })).status).toBe(200);
    await entitleTenant(app.stack.database.db, slug, 'wk-tx');
    expect((await app.post('/v1/buyboxes', { name: 'DC', spec: SPEC }, { headers: admin(slug) })).status).toBe(201);
  }

  /** Promotes the next parcel (POST /v2/pipeline/direct): a new property and its queued job. */
  async function promote(slug: string): Promise<{ jobId: string; propertyId: string }> {
    const response = await app.post('/v2/pipeline/direct', { parcel_key: `wk-${nextParcel++}`, buy_box: 'DC' }, { headers: admin(slug) });
    expect(response.status).toBe(202);
    return { jobId: response.body.diligence_job_id, propertyId: response.body.property_id };
  }

  beforeAll(async () => {
    nats = await startPrivateNats();
    stackBus = await connectTestBus(nats.url, 'stack');
    app = await startTestStack('postgres', { bus: stackBus, clock, config: { legacySharedSecret: SECRET, relay: { pollMs: 20, batchSize: 500, retentionHours: 168 } } });
    await loadMarket(app.stack.database.db, 'wk-tx', PARCELS);
    provider = await startProviderServer();
    workerBus = await connectTestBus(nats.url, 'worker');
    const defaults = loadConfig({}).worker;
    worker = await startDiligenceWorker({
      bus: workerBus,
      gatewayUrl: app.url,
      secret: SECRET,
      config: {
        ...defaults,
        dailyBudgetUsd: '1.2000',
        jobMaxUsd: '0.6000',
        leaseSeconds: 60,
        providerTimeoutMs: 2_000,
        providerUrls: Object.fromEntries(FACT_STEPS.map((step) => [step, provider.url(step)])),
      },
      logger: pino({ level: 'warn' }, { write: (line: string) => void workerLogs.push(JSON.parse(line)) }),
      retryDelayMs: () => 50,
    });
  });

  afterAll(async () => {
    await worker?.stop();
    await workerBus?.close();
    await app?.close();
    await stackBus?.close();
    await provider?.close();
    await nats?.close();
  });

  it('drives a promoted job from queued to ready, each step once, its cost in the ledger', async () => {
    await tenant('wk-ready');
    provider.script = (call) => readyAnswer(call, call.step === 'owner_contact' ? '0.1000' : '0');
    const { jobId, propertyId } = await promote('wk-ready');
    const job = await settledJob(app, admin('wk-ready'), jobId);
    expect(job.status).toBe('ready');
    expect(job.steps.map((step: any) => [step.name, step.status, step.attempts])).toEqual([
      ['parcel_record', 'ready', 1],
      ['point_data', 'ready', 1],
      ['hosting_capacity', 'ready', 1],
      ['utility_findings', 'ready', 1],
      ['owner_contact', 'ready', 1],
      ['report', 'ready', 1],
    ]);
    expect(job).toMatchObject({ max_cost_usd: '0.6000', cost_usd: '0.1000' });
    const claims = await sql<{ worker_id: string }>`select data->>'worker_id' as worker_id from diligence.outbox where data->>'job_id' = ${jobId} and subject = 'diligence.job.claimed'`.execute(app.stack.database.db);
    expect(claims.rows).toEqual([{ worker_id: worker.workerId }]);
    expect(job.steps[5]).toMatchObject({ provider: 'landscreen-builtin', data: { summary: `Diligence of parcel wk-1: 5 steps (5 ready).` } });
    const calls = provider.calls.filter((call) => call.jobId === jobId);
    expect(calls.map((call) => call.step)).toEqual(FACT_STEPS);
    expect(calls.every((call) => call.idempotencyKey === call.requestId)).toBe(true);
    const spend = await app.get('/v1/internal/diligence/spend', { headers: admin('wk-ready') });
    expect(spend.body).toMatchObject({ total_usd: '0.1000', rows: 1, by_provider: { 'acme-data': '0.1000' } });
    // The customer sees the outcome on the property page (D28).
    const page = await app.get(`/v1/properties/${propertyId}`, { headers: admin('wk-ready') });
    expect(page.body.diligence).toMatchObject({ job_id: jobId, status: 'ready' });
  });

  it('leaves a job queued when today\'s spend, a manual reveal included, leaves no room; a person may still authorize it', async () => {
    await tenant('wk-budget');
    provider.script = (call) => readyAnswer(call, call.step === 'owner_contact' ? '0.1000' : '0');
    const first = await promote('wk-budget');
    expect((await settledJob(app, admin('wk-budget'), first.jobId)).status).toBe('ready'); // 0 + 0.6 ≤ 1.2; it spent 0.1

    // A manual run: a reveal's ledger row (0.55) counts against the automatic budget (D26).
    const reveal = await app.post(`/v1/properties/${first.propertyId}/reveal`, { contact: { name: 'Jo Owner' }, provider: 'skiptrace', cost_usd: '0.55' }, { headers: admin('wk-budget') });
    expect(reveal.status).toBe(201);
    const second = await promote('wk-budget'); // 0.65 spent + 0.6 > 1.2 (without the reveal: 0.7 ≤ 1.2)
    await waitFor(async () => (await unpublishedCount(app.stack.database.db)) === 0, 'the created event published');
    await consumerIdle(nats.url, WORKER_DURABLE);
    const waiting = await app.get(`/v1/internal/diligence/jobs/${second.jobId}`, { headers: admin('wk-budget') });
    expect(waiting.body.status).toBe('queued');
    expect(provider.calls.filter((call) => call.jobId === second.jobId)).toEqual([]);

    // An operator's authorization is theirs to make: the worker runs the job on its event.
    expect((await app.post(`/v1/internal/diligence/jobs/${second.jobId}/authorize`, { max_cost_usd: '2', note: 'Approved by hand.' }, { headers: admin('wk-budget') })).status).toBe(200);
    const job = await settledJob(app, admin('wk-budget'), second.jobId);
    expect(job).toMatchObject({ status: 'ready', max_cost_usd: '2.0000' });
  });

  it('retries a step whose provider failed retryably, and completes the job', async () => {
    await tenant('wk-retry');
    provider.script = (call, count) => (call.step === 'hosting_capacity' && count === 1 ? { status: 503, body: { detail: 'try later' } } : readyAnswer(call));
    const { jobId } = await promote('wk-retry');
    const job = await settledJob(app, admin('wk-retry'), jobId);
    expect(job.status).toBe('ready');
    expect(job.steps.find((step: any) => step.name === 'hosting_capacity')).toMatchObject({ status: 'ready', attempts: 2 });
    const subjects = await outboxSubjects(app, jobId);
    expect(subjects.filter((subject) => subject === 'diligence.step.failed')).toHaveLength(1);
    expect(subjects.filter((subject) => subject === 'diligence.job.claimed')).toHaveLength(2);
  });

  it('fails the job after three retryable failures of one step', async () => {
    await tenant('wk-fail');
    provider.script = (call) => (call.step === 'point_data' ? { status: 503, body: {} } : readyAnswer(call));
    const { jobId } = await promote('wk-fail');
    const job = await settledJob(app, admin('wk-fail'), jobId);
    expect(job.status).toBe('failed');
    expect(job.steps.find((step: any) => step.name === 'point_data')).toMatchObject({ status: 'failed', attempts: 3, error: { code: 'provider_error' } });
    expect(provider.calls.filter((call) => call.jobId === jobId && call.step === 'point_data')).toHaveLength(3);
  });

  it('reconciles a result that arrived after the lease expired, pays for it once, and carries on', async () => {
    await tenant('wk-late');
    provider.script = (call, count) => {
      // The provider takes longer than the lease: by the time it answers, the lease has expired.
      if (call.step === 'utility_findings' && count === 1) clock.advance(61_000);
      return readyAnswer(call, call.step === 'utility_findings' ? '0.2500' : '0');
    };
    const { jobId } = await promote('wk-late');
    const job = await settledJob(app, admin('wk-late'), jobId);
    expect(job.status).toBe('ready');
    expect(job.steps.find((step: any) => step.name === 'utility_findings')).toMatchObject({ status: 'ready', attempts: 1, cost_usd: '0.2500' });
    expect(provider.calls.filter((call) => call.jobId === jobId && call.step === 'utility_findings')).toHaveLength(1);
    expect(await ledgerRows(app, jobId)).toMatchObject([{ step: 'utility_findings', amount_usd: '0.2500' }]);
    expect((await outboxSubjects(app, jobId)).filter((subject) => subject === 'diligence.job.claimed')).toHaveLength(2);
  });

  it('runs each step once when two workers share the durable and the event comes again', async () => {
    await tenant('wk-twice');
    provider.script = (call) => readyAnswer(call);
    const secondBus = await connectTestBus(nats.url, 'second-worker');
    const second = await startDiligenceWorker({
      bus: secondBus,
      gatewayUrl: app.url,
      secret: SECRET,
      config: { ...loadConfig({}).worker, leaseSeconds: 60, providerUrls: Object.fromEntries(FACT_STEPS.map((step) => [step, provider.url(step)])) },
      logger: createLogger('silent'),
    });
    try {
      const { jobId } = await promote('wk-twice');
      const created = await sql<{ data: Record<string, unknown> }>`select data from diligence.outbox where data->>'job_id' = ${jobId} and subject = 'diligence.job.created'`.execute(app.stack.database.db);
      // The same event again under new ids, as a replay from outside the duplicate window would be.
      for (let i = 0; i < 3; i++) await stackBus.publish('diligence.job.created', created.rows[0]!.data, { id: `${jobId}-again-${i}` });
      expect((await settledJob(app, admin('wk-twice'), jobId)).status).toBe('ready');
      await consumerIdle(nats.url, WORKER_DURABLE);
      const calls = provider.calls.filter((call) => call.jobId === jobId).map((call) => call.step);
      expect(calls).toEqual(FACT_STEPS);
      expect((await outboxSubjects(app, jobId)).filter((subject) => subject === 'diligence.job.claimed')).toHaveLength(1);
    } finally {
      await second.stop();
      await secondBus.close();
    }
  });

  it('drops an event the API refuses for good (its tenant is gone) instead of retrying it forever, and goes on', async () => {
    const jobId = randomUUID();
    await stackBus.publish('diligence.job.created', { job_id: jobId, tenant: 'wk-gone' }, { id: `gone-${jobId}` });
    await waitFor(
      () => workerLogs.some((log) => log.job === jobId && log.tenant === 'wk-gone' && log.msg === 'the API refused the worker; event dropped'),
      'the worker to drop the event',
    );
    // Acknowledged, not left to redeliver: the consumer has nothing pending or unacknowledged.
    await consumerIdle(nats.url, WORKER_DURABLE);
    await tenant('wk-after');
    provider.script = (call) => readyAnswer(call);
    const { jobId: next } = await promote('wk-after');
    expect((await settledJob(app, admin('wk-after'), next)).status).toBe('ready');
  });
});
