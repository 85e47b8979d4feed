// Operators can see inside: `GET /metrics` over HTTP, after real requests, shows the route
// latency histogram by route pattern, the event loop's lag, the database pool's gauges and the
// credits a billed call charged — in the embedded default on PGlite and on PostgreSQL.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MODES, startTestStack, type TestStack } from '@landscreen/testing';
import { headersOf, loadSubstations, locations, RUN_FIELDS, tenantOnPlan } from '../support/runs.js';
import { samplesOf, scrape, valueOf } from '../support/prometheus.js';

describe.each(DATABASE_MODES)('GET /metrics (%s)', (mode) => {
  let app: TestStack;
  const TENANT = `metrics-${mode}`;

  beforeAll(async () => {
    app = await startTestStack(mode);
    await loadSubstations(app.stack.database.db);
    await tenantOnPlan(app, app.stack.database.db, TENANT, 'growth');
  });
  afterAll(async () => {
    await app?.close();
  });

  it('shows the route latency by pattern, the event-loop lag, the pool gauges and the credits a billed call charged', async () => {
    const before = await scrape(app.url);
    expect(before.status).toBe(200);
    expect(before.type).toMatch(/^text\/plain; version=0\.0\.4/);

    const points = locations(5, 3);
    const batch = await app.post('/v1/fetch/batch', { locations: points, fields: RUN_FIELDS }, { headers: headersOf(TENANT) });
    expect(batch.status).toBe(200);
    const charged = Number(batch.headers.get('x-credits-charged'));
    expect(charged).toBeGreaterThan(0);
    const unknownRun = await app.get('/v1/runs/00000000-0000-4000-8000-000000000000', { headers: headersOf(TENANT) });
    expect(unknownRun.status).toBe(404);

    const after = await scrape(app.url);
    expect(after.status).toBe(200);
    const { samples } = after;

    // By route pattern, never the raw URL: the run id is not a label value. (Counters are the
    // process's: the other mode's stack counted into them too, so what this test did is the change.)
    const latency = 'landscreen_http_request_duration_seconds_count';
    const change = (labels: Record<string, string>) => valueOf(samples, latency, labels) - valueOf(before.samples, latency, labels);
    expect(change({ method: 'POST', route: '/v1/fetch/batch', status: '200' })).toBe(1);
    expect(change({ method: 'GET', route: '/v1/runs/:run_id', status: '404' })).toBe(1);
    expect(samplesOf(samples, 'landscreen_http_request_duration_seconds_bucket', { route: '/v1/fetch/batch', status: '200', le: '+Inf' })).toHaveLength(1);
    expect(samples.some((sample) => sample.labels.route?.includes('00000000-'))).toBe(false);

    expect(samplesOf(samples, 'nodejs_eventloop_lag_seconds')).toHaveLength(1);
    expect(samplesOf(samples, 'nodejs_eventloop_lag_p99_seconds')).toHaveLength(1);

    const pool = mode === 'postgres' ? 'postgres' : 'pglite';
    expect(valueOf(samples, 'landscreen_db_pool_connections', { pool })).toBeGreaterThanOrEqual(1);
    expect(samplesOf(samples, 'landscreen_db_pool_idle_connections', { pool })).toHaveLength(1);
    expect(samplesOf(samples, 'landscreen_db_pool_waiting', { pool })).toHaveLength(1);
    expect(valueOf(samples, 'landscreen_db_pool_acquire_seconds_count', { pool })).toBeGreaterThan(0);

    const credits = (scraped: typeof samples) => valueOf(scraped, 'landscreen_credits_charged_total');
    expect(credits(samples) - credits(before.samples)).toBe(charged);
    expect(samplesOf(samples, 'landscreen_imports_in_flight', { kind: 'vector' })).toHaveLength(1);
    expect(valueOf(samples, 'landscreen_runs_in_flight')).toBe(0);
  });

  it('asks for METRICS_TOKEN as a bearer token once it is set', async () => {
    const guarded = await startTestStack(mode, { config: { metrics: { port: undefined, token: 'scrape-secret' } } });
    try {
      const anonymous = await scrape(guarded.url);
      expect(anonymous.status).toBe(401);
      const wrong = await scrape(guarded.url, { authorization: 'Bearer not-it' });
      expect(wrong.status).toBe(401);
      const allowed = await scrape(guarded.url, { authorization: 'Bearer scrape-secret' });
      expect(allowed.status).toBe(200);
      expect(samplesOf(allowed.samples, 'nodejs_eventloop_lag_seconds')).toHaveLength(1);
    } finally {
      await guarded.close();
    }
  });
});
