import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type EmbeddedStack } from '@landscreen/runtime';
import { loadConfig } from '@landscreen/config';
import type { DatabaseHandle } from '@landscreen/db';
import { createLogger } from '@landscreen/rpc';
import { createTestPGlite, entitleTenant, httpClient, loadMarket } from '@landscreen/testing';
import { settledJob, startProviderServer, type ProviderServer } from './worker-harness.js';

const ADMIN = { authorization: 'Bearer dev:ada@acme.test', 'x-tenant': 'acme' };
const FACT_STEPS = ['parcel_record', 'point_data', 'hosting_capacity', 'utility_findings', 'owner_contact'];

/**
 * The embedded default (`landscreen serve`): PGlite, the in-process bus, and the stack's own
 * worker calling its own gateway with a secret made for it (no LEGACY_SHARED_SECRET configured).
 */
describe('the embedded default runs its own worker', () => {
  let database: DatabaseHandle;
  let stack: EmbeddedStack;
  let provider: ProviderServer;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-embedded-worker-'));
    database = await createTestPGlite();
    provider = await startProviderServer();
    const defaults = loadConfig({});
    const config = loadConfig({}, {
      port: 0,
      host: '127.0.0.1',
      dataDir,
      logLevel: 'silent',
      authDev: true,
      relay: { pollMs: 20, batchSize: 500, retentionHours: 168 },
      worker: { ...defaults.worker, providerUrls: Object.fromEntries(FACT_STEPS.map((step) => [step, provider.url(step)])) },
    });
    expect(config.legacySharedSecret).toBeUndefined();
    stack = await startEmbeddedStack({ config, logger: createLogger('silent'), database, worker: true });
  });

  afterAll(async () => {
    await stack?.close();
    await database?.close();
    await provider?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('drives a promoted job to ready on the in-process bus with a secret of its own', async () => {
    const app = httpClient(stack.url);
    expect(stack.bus.kind).toBe('memory');
    expect(stack.config.legacySharedSecret).toMatch(/^[\w-]{43}$/);
    expect((await app.get('/v1/me', { headers: ADMIN })).status).toBe(200);
    await loadMarket(database.db, 'emb-tx', [{ geometry: { type: 'Point', coordinates: [-97.5, 30.1] }, properties: { parcel_key: 'emb-1', acres: 80 } }]);
    await entitleTenant(database.db, 'acme', 'emb-tx');
    const spec = { markets: ['emb-tx'], must: [], preferred: [{ field: 'acres', op: '>=', value: 50, weight: 1 }], verdict_cutoffs: { pursue: 70, monitor: 40 } };
    expect((await app.post('/v1/buyboxes', { name: 'DC', spec }, { headers: ADMIN })).status).toBe(201);
    const promoted = await app.post('/v2/pipeline/direct', { parcel_key: 'emb-1', buy_box: 'DC' }, { headers: ADMIN });
    expect(promoted.status).toBe(202);
    const job = await settledJob(app, ADMIN, promoted.body.diligence_job_id);
    expect(job.status).toBe('ready');
    expect(provider.calls.map((call) => call.step)).toEqual(FACT_STEPS);
  });
});

describe('the embedded worker with its built-in providers only', () => {
  let database: DatabaseHandle;
  let stack: EmbeddedStack;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-embedded-builtin-'));
    database = await createTestPGlite();
    const config = loadConfig({}, { port: 0, host: '127.0.0.1', dataDir, logLevel: 'silent', authDev: true, relay: { pollMs: 20, batchSize: 500, retentionHours: 168 } });
    stack = await startEmbeddedStack({ config, logger: createLogger('silent'), database, worker: true });
  });

  afterAll(async () => {
    await stack?.close();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('computes the steps from the parcel the job was promoted with', async () => {
    const app = httpClient(stack.url);
    expect((await app.get('/v1/me', { headers: ADMIN })).status).toBe(200);
    const facts = { parcel_key: 'bi-1', apn: 'BI-001', address: '1 Builtin Way', acres: 80, owner_name: 'Acme Holdings LLC', zoning: 'industrial', nearest_substation_distance_m: 1200 };
    await loadMarket(database.db, 'bi-tx', [{ geometry: { type: 'Point', coordinates: [-97.5, 30.1] }, properties: facts }]);
    await entitleTenant(database.db, 'acme', 'bi-tx');
    const spec = { markets: ['bi-tx'], must: [], preferred: [{ field: 'acres', op: '>=', value: 50, weight: 1 }], verdict_cutoffs: { pursue: 70, monitor: 40 } };
    expect((await app.post('/v1/buyboxes', { name: 'DC', spec }, { headers: ADMIN })).status).toBe(201);
    const promoted = await app.post('/v2/pipeline/direct', { parcel_key: 'bi-1', buy_box: 'DC' }, { headers: ADMIN });
    const job = await settledJob(app, ADMIN, promoted.body.diligence_job_id);
    const record = job.steps.find((step: any) => step.name === 'parcel_record');
    expect(record).toMatchObject({ status: 'ready', provider: 'landscreen-builtin' });
    expect(record.data.record).toMatchObject({ apn: 'BI-001', acres: 80, owner_name: 'Acme Holdings LLC' });
    for (const step of job.steps) expect(step.data?.summary ?? '').not.toMatch(/not available to the worker/);
    const page = await app.get(`/v1/properties/${promoted.body.property_id}`, { headers: ADMIN });
    expect(page.body.diligence.status).toBe(job.status);
  });
});
