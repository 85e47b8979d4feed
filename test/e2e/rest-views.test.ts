// Every REST body the gateway writes, recorded byte for byte over HTTP, one file per resource family
// (discovery, buy boxes, pipeline board and cards, leads and deliveries, runs, catalog meta,
// internal records, diligence jobs). The files under __snapshots__/rest-views/<mode>/ are the answers as
// the views layer writes them: a change to a view shows here as a diff of the answer it changes.
//
// The stack runs on an injected clock and fixed fixtures so the answers repeat; only values that
// are random by design (UUIDs, claim tokens) are replaced, by a name per distinct value in order
// of first appearance, so the answers still show which ids are the same; so are the times the
// database stamps with its own now() rather than the injected clock.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@landscreen/rpc';
import { checkFetchResponse, DATABASE_MODES, entitleTenant, loadMarket, startTestStack, type TestStack } from '@landscreen/testing';
import { waitFor } from '../../packages/events/src/test-wait.js';
import { loadSubstations, locations, settledRun, tenantOnPlan } from '../support/runs.js';
import { LEAD_PARCELS, LEAD_SPEC, centreOf } from './leads-fixture.js';

const TENANT = 'acme';
const ADMIN = { authorization: 'Bearer dev:ada@acme.test:admin', 'x-tenant': TENANT };
const WORKER = { authorization: 'Bearer dev:wes@acme.test:worker', 'x-tenant': TENANT };
const START = new Date('2026-03-04T05:06:07.000Z');
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const QUERY_HASH = /"query_hash":"([0-9a-f]{64})"/g;
const CURSOR = /"next_cursor":"([^"]+)"/g;
const CLAIM_TOKEN = /"claim_token":"[^"]*"/g;
const TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g;
/** How far from the injected clock's start a time may be and still be the clock's (the suite advances it by seconds). */
const CLOCK_SPAN = 24 * 3_600_000;
const RUN_FIELDS = ['nearest_substation_distance_m', 'nearest_substation_max_voltage_kv', 'nearest_gas_pipeline_distance_m'];

/** One exchange as recorded: the request line, the status, the content type and the body as sent. */
interface Exchange {
  status: number;
  text: string;
  json: any;
}

describe.each(DATABASE_MODES)('REST answers, byte for byte, on %s', (mode) => {
  const clock = new ManualClock(START);
  let app: TestStack;
  let vintageId: string;
  const names = new Map<string, string>();
  const records = new Map<string, string[]>();

  const nameOf = (value: string, kind: string) => {
    if (!names.has(value)) names.set(value, `<${kind}-${[...names.values()].filter((name) => name.startsWith(`<${kind}-`)).length + 1}>`);
    return names.get(value)!;
  };

  /** Replaces the random values of a body with stable names (the same value, the same name). */
  const normalise = (text: string) =>
    text
      .replace(UUID, (id) => nameOf(id, 'uuid'))
      // A query hash covers the vintage's id, a UUID.
      .replace(QUERY_HASH, (_, hash: string) => `"query_hash":"${nameOf(hash, 'query-hash')}"`)
      // A cursor carries the query hash and a signature.
      .replace(CURSOR, (_, cursor: string) => `"next_cursor":"${nameOf(cursor, 'cursor')}"`)
      .replace(CLAIM_TOKEN, '"claim_token":"<claim-token>"')
      // A time the database stamped itself (a column's default of now()) is the machine's, not the clock's.
      .replace(TIMESTAMP, (time) => (Math.abs(Date.parse(time) - START.getTime()) < CLOCK_SPAN ? time : '<database-time>'));

  /** Sends a request over HTTP, records its answer under `family`, and answers it. */
  async function call(family: string, method: string, path: string, body?: unknown, headers: Record<string, string> = ADMIN): Promise<Exchange> {
    clock.advance(1_000);
    const url = new URL(path, app.url);
    const response = await fetch(url, {
      method,
      headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    await checkFetchResponse(method, url, response);
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    const lines = records.get(family) ?? [];
    lines.push(`### ${method} ${normalise(url.pathname + url.search)}\n${response.status} ${type}\n${normalise(text)}\n`);
    records.set(family, lines);
    return { status: response.status, text, json: type.includes('application/json') && text ? JSON.parse(text) : undefined };
  }

  const expectRecorded = (family: string) =>
    expect(records.get(family)!.join('\n')).toMatchFileSnapshot(`./__snapshots__/rest-views/${mode}/${family}.txt`);

  beforeAll(async () => {
    app = await startTestStack(mode, { clock, runsWorker: true, config: { runs: { embedded: true, chunkSize: 500, leaseSeconds: 30, concurrency: 1 } } });
    const db = app.stack.database.db;
    await tenantOnPlan(app, db, TENANT, 'scale');
    vintageId = (await loadMarket(db, 'lead-tx', LEAD_PARCELS)).vintageId;
    await entitleTenant(db, TENANT, 'lead-tx');
    await loadSubstations(db);
  });
  afterAll(() => app?.close());

  it('buy boxes', async () => {
    expect((await call('buyboxes', 'POST', '/v1/buyboxes', { name: 'DC', spec: LEAD_SPEC, description: 'data centres' })).status).toBe(201);
    const graded = { ...LEAD_SPEC, preferred: [{ field: 'acres', op: '>=', value: 150, weight: 1, grade: { zero_at: 60 } }] };
    expect((await call('buyboxes', 'POST', '/v1/buyboxes', { name: 'Graded', spec: graded })).status).toBe(201);
    await call('buyboxes', 'GET', '/v1/buyboxes');
    await call('buyboxes', 'PUT', '/v1/buyboxes/Graded', { spec: graded, description: null });
    await call('buyboxes', 'POST', '/v2/discovery/query', { buy_box: 'Graded', limit: 2 });
    await call('buyboxes', 'POST', '/v1/buyboxes/parse', { text: 'market lead-tx\nacres >= 50\nprefer substation within 3 km' });
    await call('buyboxes', 'PUT', '/v1/buyboxes/nope', { spec: LEAD_SPEC });
    expect((await call('buyboxes', 'DELETE', '/v1/buyboxes/Graded')).status).toBe(204);
    await call('buyboxes', 'GET', '/v1/buyboxes');
    await expectRecorded('buyboxes');
  });

  it('discovery', async () => {
    const page = await call('discovery', 'POST', '/v2/discovery/query', { buy_box: 'DC', limit: 3 });
    expect(page.status).toBe(200);
    await call('discovery', 'POST', '/v2/discovery/query', { buy_box: 'DC', limit: 3, cursor: page.json.next_cursor, fields: ['acres', 'nearest_substation_distance_m'] });
    await call('discovery', 'POST', '/v2/discovery/query', { buy_box: 'DC', limit: 2, draft: { ...LEAD_SPEC, must: [{ field: 'acres', op: '>=', value: 100, unknown: 'review' }] } });
    await call('discovery', 'POST', '/v2/discovery/export?format=csv', { buy_box: 'DC' });
    await call('discovery', 'GET', '/v2/discovery/export?buy_box=DC&format=geojson');
    await call('discovery', 'POST', '/v2/parcels/resolve', { market: 'lead-tx', apn: 'L-002' });
    await call('discovery', 'POST', '/v2/parcels/resolve', { market: 'lead-tx', address: '100 Shared Road' });
    await call('discovery', 'GET', `/v2/parcels/lt-3/evaluation?buy_box=DC`);
    await call('discovery', 'GET', `/v2/parcels/lt-flood/evaluation?buy_box=DC`);
    await expectRecorded('discovery');
  });

  it('pipeline board and cards', async () => {
    const page = await call('pipeline', 'POST', '/v2/discovery/query', { buy_box: 'DC', limit: 1 });
    const [best] = page.json.results;
    const promoted = await call('pipeline', 'POST', '/v2/pipeline', { parcel_key: best.parcel_key, buy_box: 'DC', query_hash: page.json.query_hash });
    expect(promoted.status).toBe(202);
    await call('pipeline', 'POST', '/v2/pipeline/direct', { parcel_key: 'lt-5', buy_box: 'DC', vintage_id: vintageId });
    const added = await call('pipeline', 'POST', '/v1/pipeline', { market: 'lead-tx', parcel_key: 'lt-7', notes: 'walk the site' });
    await call('pipeline', 'PATCH', `/v1/pipeline/${added.json.id}`, { stage: 'contacted', notes: 'owner called', position: 0 });
    await call('pipeline', 'GET', '/v1/pipeline');
    await call('pipeline', 'GET', '/v1/pipeline?stage=contacted&archived=true');
    await call('pipeline', 'GET', '/v1/pipeline?format=csv');
    await call('pipeline', 'GET', `/v1/properties/${promoted.json.property_id}`);
    await call('pipeline', 'POST', `/v1/properties/${promoted.json.property_id}/reveal`, {
      contact: { name: 'Pat Owner', phone: '+1 555 0100' },
      provider: 'acme-data',
      provider_request_id: 'req-1',
      cost_usd: '0.2500',
    });
    await call('pipeline', 'GET', `/v1/properties/${promoted.json.property_id}`);
    await expectRecorded('pipeline');
  });

  it('leads and deliveries', async () => {
    const created = await call('leads', 'POST', '/v1/lead-requests', { buy_box: 'DC', count: 3, note: 'first look' });
    expect(created.status).toBe(201);
    let done: any;
    await waitFor(async () => {
      const list = (await fetch(new URL('/v1/lead-requests', app.url), { headers: ADMIN }).then((response) => response.json())) as any;
      done = list.lead_requests.find((request: any) => request.id === created.json.id && request.status !== 'open');
      return done !== undefined;
    }, 'the lead request to be handled');
    await call('leads', 'GET', '/v1/lead-requests');
    await call('leads', 'GET', '/v1/deliveries');
    const delivery = await call('leads', 'GET', `/v1/deliveries/${done.delivery_id}`);
    await call('leads', 'GET', `/v1/deliveries/${done.delivery_id}?format=csv`);
    await call('leads', 'GET', `/v1/properties/${delivery.json.leads[0].property_id}`);
    await call('leads', 'POST', '/v1/leads/import', {
      market: 'lead-tx',
      buy_box: 'DC',
      add_to_pipeline: true,
      rows: [
        { ref: 'a', apn: 'L-009' },
        { ref: 'b', address: '10 Lead Road' },
        { ref: 'c', ...centreOf(LEAD_PARCELS[10]!) },
        { ref: 'd', address: '100 Shared Road' },
        { ref: 'e', apn: 12345 },
        { ref: 'f', apn: 'NOPE' },
        { ref: 'g', lat: 95, lon: 0 },
      ],
    });
    await call('leads', 'POST', '/v1/leads/find?limit=3', { buy_box: 'DC', fields: ['acres'] });
    await call('leads', 'POST', '/v1/leads/find?count_only=true', { draft: LEAD_SPEC });
    await expectRecorded('leads');
  });

  it('diligence jobs', async () => {
    // The first two jobs only: the lead import's jobs share one database time, so their order is a tie.
    const list = await call('jobs', 'GET', '/v1/internal/diligence/jobs?limit=2', undefined, WORKER);
    const jobId = list.json.jobs[0].id;
    await call('jobs', 'GET', `/v1/internal/diligence/jobs/${jobId}`, undefined, WORKER);
    await call('jobs', 'POST', `/v1/internal/diligence/jobs/${jobId}/authorize`, { max_cost_usd: '10', note: 'Approved.' });
    const claim = await call('jobs', 'POST', `/v1/internal/diligence/jobs/${jobId}/claim`, { worker_id: 'worker-1' }, WORKER);
    const token = claim.json.claim_token;
    const step = claim.json.job.steps[0].name;
    await call('jobs', 'POST', `/v1/internal/diligence/jobs/${jobId}/steps/${step}/start`, { claim_token: token }, WORKER);
    await call('jobs', 'POST', `/v1/internal/diligence/jobs/${jobId}/steps/${step}/complete`, {
      claim_token: token,
      status: 'ready',
      provider: 'acme-data',
      provider_version: 'v2',
      data: { owner: 'Pat Owner' },
      citations: [{ url: 'https://example.test/deed' }],
      cost_usd: '1.25',
    }, WORKER);
    await call('jobs', 'GET', `/v1/internal/diligence/jobs/${jobId}`, undefined, WORKER);
    await call('jobs', 'GET', '/v1/internal/diligence/spend', undefined, WORKER);
    await expectRecorded('jobs');
  });

  it('runs', async () => {
    const submitted = await call('runs', 'POST', '/v1/runs', { locations: locations(4), fields: RUN_FIELDS });
    expect(submitted.status).toBe(202);
    await settledRun(app, TENANT, submitted.json.run_id);
    await call('runs', 'GET', `/v1/runs/${submitted.json.run_id}`);
    await call('runs', 'GET', '/v1/runs');
    await call('runs', 'GET', `/v1/runs/${submitted.json.run_id}/results?format=ndjson`);
    await call('runs', 'GET', `/v1/runs/${submitted.json.run_id}/results?format=csv`);
    await call('runs', 'GET', `/v1/runs/${submitted.json.run_id}/results?format=geojson`);
    await expectRecorded('runs');
  });

  it('catalog meta, fetch and lookup', async () => {
    await call('catalog', 'GET', '/v1/meta/plans');
    await call('catalog', 'GET', '/v1/meta/fields?layer=terrain');
    await call('catalog', 'GET', '/v1/meta/fields?name=parcel_owner');
    await call('catalog', 'GET', '/v1/meta/sources');
    await call('catalog', 'POST', '/v1/fetch/batch', { locations: locations(3, 7), fields: RUN_FIELDS });
    await call('catalog', 'POST', '/v1/fetch/batch', { locations: locations(2, 9), fields: RUN_FIELDS, dry_run: true });
    await call('catalog', 'POST', '/v1/lookup', { ...centreOf(LEAD_PARCELS[2]!), market: 'lead-tx', include_parcel: true });
    await call('catalog', 'POST', '/v1/lookup', { address: '3 Lead Road', market: 'lead-tx' });
    await call('catalog', 'GET', '/v1/usage');
    await expectRecorded('catalog');
  });

  it('internal records', async () => {
    await call('internal', 'POST', '/v1/internal/hosting-capacity/estimate', { latitude: 30.2, longitude: -97.6, state: 'TX' });
    await call('internal', 'POST', '/v1/internal/hosting-capacity/estimate', { latitude: 45, longitude: -97, state: 'TX' });
    await call('internal', 'GET', `/v1/internal/utility-findings?vintage_id=${vintageId}&parcel_key=lt-2`);
    await expectRecorded('internal');
  });
});
