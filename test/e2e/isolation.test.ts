// No caller's heavy work stalls the others (D39), over HTTP, in the embedded default (PGlite, the
// in-process bus and runs worker) and on PostgreSQL with NATS JetStream: while a 100,000-location
// run is processed, while 20 site reports render (one of a property whose contact is a single
// 200,000-character word), and while 30 MB invalid bodies arrive, /healthz and another tenant's
// request are answered, with their correct bodies, before the heavy work is over. No time bound:
// what is asserted is the order of events. And DELETE stops a run mid-way: its progress stops,
// it is cancelled, and exactly its unprocessed locations are refunded.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventBus } from '@landscreen/events';
import { entitleTenant, loadMarket, startTestStack, type TestStack } from '@landscreen/testing';
import { headersOf, loadSubstations, locations, RUN_FIELDS, settledRun, tenantOnPlan, usage } from '../support/runs.js';
import { connectTestBus, startPrivateNats, type PrivateNats } from './relay-harness.js';

const HEAVY = 'iso-heavy';
const OTHER = 'iso-other';

/** A 20-parcel market: squares on a line, all passing the box below. */
const PARCELS = Array.from({ length: 20 }, (_, i) => {
  const lon = -97.9 + i * 0.01;
  const lat = 30.2;
  return {
    geometry: { type: 'Polygon' as const, coordinates: [[[lon, lat], [lon + 0.004, lat], [lon + 0.004, lat + 0.004], [lon, lat + 0.004], [lon, lat]]] },
    properties: { parcel_key: `iso-${i}`, apn: `ISO-${i}`, address: `${i} Isolation Way`, zoning: 'AG', acres: 50 + i },
  };
});
const SPEC = { markets: ['iso-tx'], must: [{ field: 'acres', op: 'gte', value: 10 }], preferred: [{ field: 'acres', op: 'gte', value: 60, weight: 1 }], verdict_cutoffs: { pursue: 70, monitor: 40 } };

/** About 30 MB of run body: over 400,000 locations, each with a word for its latitude. */
function invalidRunBody(): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < 30_000_000; i++) {
    const part = `{"lat":"north-${i}","lon":-97.7,"id":"bad-location-${String(i).padStart(12, '0')}"}`;
    parts.push(part);
    length += part.length + 1;
  }
  return `{"fields":["nearest_substation_distance_m"],"locations":[${parts.join(',')}]}`;
}

const MODES = [
  { name: 'the embedded default (PGlite, in-process bus)', database: 'pglite' as const, nats: false },
  { name: 'PostgreSQL and NATS JetStream', database: 'postgres' as const, nats: true },
];

describe.each(MODES)('requests stay answered while heavy work runs, in $name', ({ database, nats: withNats }) => {
  let app: TestStack;
  let nats: PrivateNats | undefined;
  let bus: EventBus | undefined;
  let otherUsage: Awaited<ReturnType<typeof usage>>;
  let build: string;
  const propertyIds: string[] = [];

  /**
   * /healthz and another tenant's usage, each checked for its exact body; answers whether `busy()`
   * was still true once both had answered (so they were answered before the heavy work was over).
   */
  async function answeredWhile(busy: () => boolean | Promise<boolean>): Promise<boolean> {
    const [health, other] = await Promise.all([app.get('/healthz'), app.get('/v1/usage', { headers: headersOf(OTHER) })]);
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok', build });
    expect(other.status).toBe(200);
    expect(other.body).toEqual(otherUsage);
    return busy();
  }

  beforeAll(async () => {
    if (withNats) {
      nats = await startPrivateNats();
      bus = await connectTestBus(nats.url, 'isolation');
    }
    app = await startTestStack(database, { bus, runsWorker: true });
    const db = app.stack.database.db;
    await loadSubstations(db);
    await tenantOnPlan(app, db, HEAVY, 'market');
    await tenantOnPlan(app, db, OTHER, 'build');
    otherUsage = await usage(app, OTHER);
    build = (await app.get('/healthz')).body.build;

    await loadMarket(db, 'iso-tx', PARCELS);
    await entitleTenant(db, HEAVY, 'iso-tx');
    const heavy = headersOf(HEAVY);
    expect((await app.post('/v1/buyboxes', { name: 'iso', spec: SPEC }, { headers: heavy })).status).toBe(201);
    const page = (await app.post('/v2/discovery/query', { buy_box: 'iso', limit: 20 }, { headers: heavy })).body;
    for (const result of page.results) {
      const promoted = await app.post('/v2/pipeline', { parcel_key: result.parcel_key, buy_box: 'iso', query_hash: page.query_hash }, { headers: heavy });
      expect(promoted.status).toBe(202);
      propertyIds.push(promoted.body.property_id);
    }
    expect(propertyIds).toHaveLength(20);
    // A contact of one word of 200,000 characters: such a report once held the server for minutes.
    const reveal = { contact: { name: 'N'.repeat(200_000), phone: '+1 512 555 0100' }, provider: 'skiptrace', cost_usd: '0.10' };
    expect((await app.post(`/v1/properties/${propertyIds[0]}/reveal`, reveal, { headers: heavy })).status).toBe(201);
  });

  afterAll(async () => {
    await app?.close();
    await bus?.close();
    await nats?.close();
  });

  it('answers while a 100,000-location run is submitted and processed', async () => {
    const heavy = headersOf(HEAVY);
    const submitted = await app.post('/v1/runs', { locations: locations(100_000, 7), fields: RUN_FIELDS }, { headers: heavy });
    expect(submitted.status).toBe(202);
    const runId = submitted.body.run_id;
    const unfinished = async () => {
      const run = (await app.get(`/v1/runs/${runId}`, { headers: heavy })).body;
      return run.status === 'queued' || run.status === 'running';
    };
    let answeredDuring = 0;
    while (await answeredWhile(unfinished)) answeredDuring++;
    expect(answeredDuring).toBeGreaterThan(0);
    const run = await settledRun(app, HEAVY, runId);
    expect(run).toMatchObject({ status: 'succeeded', progress: { done: 100_000, total: 100_000 } });
  });

  it('answers while 20 site reports render, one of them of a contact that is one 200,000-character word', async () => {
    let rendered = 0;
    const reports = Promise.all(
      propertyIds.map(async (id) => {
        const response = await fetch(new URL(`/v1/properties/${id}/pdf`, app.url), { headers: headersOf(HEAVY) });
        const bytes = Buffer.from(await response.arrayBuffer());
        rendered++;
        return { status: response.status, bytes };
      }),
    );
    expect(await answeredWhile(() => rendered < propertyIds.length)).toBe(true);
    for (const { status, bytes } of await reports) {
      expect(status).toBe(200);
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
  });

  it('answers while 30 MB invalid bodies are read, and refuses an anonymous one 401 without reading it', async () => {
    const body = invalidRunBody();
    let answered = 0;
    const send = (headers: Record<string, string>) =>
      app.request('POST', '/v1/runs', { rawBody: body, headers: { ...headers, 'content-type': 'application/json' } }).then((response) => {
        answered++;
        return response;
      });
    const bodies = Promise.all([send(headersOf(HEAVY)), send(headersOf(HEAVY))]);
    expect(await answeredWhile(() => answered < 2)).toBe(true);
    for (const response of await bodies) {
      expect(response.status).toBe(422);
      // Over 400,000 locations: more than a run may hold (its items are not checked past that).
      expect(response.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'locations'], type: 'too_long', ctx: expect.objectContaining({ max_length: 100_000 }) })]);
    }
    const anonymous = await app.request('POST', '/v1/runs', { rawBody: body, headers: { 'content-type': 'application/json' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('unauthenticated');
  });

  it('DELETE stops a run mid-way: progress stops, the run is cancelled, and exactly its unprocessed locations are refunded', async () => {
    const heavy = headersOf(HEAVY);
    const before = await usage(app, HEAVY);
    const submitted = await app.post('/v1/runs', { locations: locations(100_000, 11), fields: RUN_FIELDS }, { headers: heavy });
    expect(submitted.status).toBe(202);
    const runId = submitted.body.run_id;
    // Mid-way: some chunks written, most not.
    let run = (await app.get(`/v1/runs/${runId}`, { headers: heavy })).body;
    while (run.progress.done === 0) run = (await app.get(`/v1/runs/${runId}`, { headers: heavy })).body;
    expect(run.status).toBe('running');

    const cancelled = await app.request('DELETE', `/v1/runs/${runId}`, { headers: heavy });
    expect(cancelled.status).toBe(200);
    const { done, total } = cancelled.body.progress;
    expect(cancelled.body.status).toBe('cancelled');
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(total);
    const perLocation = cancelled.body.credits.per_location;
    expect(cancelled.body.credits.refunded).toBe((total - done) * perLocation);

    // Whatever the worker held when the DELETE committed is dropped: once a later run has been
    // processed behind it, the cancelled run has not moved.
    const later = await app.post('/v1/runs', { locations: locations(10, 13), fields: RUN_FIELDS }, { headers: heavy });
    expect((await settledRun(app, HEAVY, later.body.run_id)).status).toBe('succeeded');
    run = (await app.get(`/v1/runs/${runId}`, { headers: heavy })).body;
    expect(run).toMatchObject({ status: 'cancelled', progress: { done, total }, credits: { refunded: (total - done) * perLocation } });

    // The ledger says the same: the run's charge, less its refund, and the later run's charge.
    const after = await usage(app, HEAVY);
    expect(after.by_operation.run - before.by_operation.run).toBe(done * perLocation + 10 * perLocation);
    // Results hold exactly the processed locations.
    const results = await fetch(new URL(`/v1/runs/${runId}/results`, app.url), { headers: heavy });
    expect(results.status).toBe(200);
    const lines = (await results.text()).split('\n').filter((line) => line.length > 0);
    expect(lines).toHaveLength(done);
  });
});
