import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_MODES, entitleTenant, faultSwitch, loadMarket, startTestStack, type TestStack } from '@landscreen/testing';
import { IMPORT_FAULT_BEFORE_COMMIT } from '../../services/pipeline/src/leads/import/handler.js';
import { waitFor } from '../../packages/events/src/test-wait.js';
import { LEAD_PARCELS, LEAD_SPEC, centreOf } from './leads-fixture.js';

const ACME = { authorization: 'Bearer dev:ann@acme.test', 'x-tenant': 'acme' };
const GLOBEX = { authorization: 'Bearer dev:gil@globex.test', 'x-tenant': 'globex' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const fault = faultSwitch();

/**
 * D30 in the embedded default (in-process bus, the pipeline's relay and lead worker running in the
 * stack) on PGlite and PostgreSQL: lead requests delivered with their exclusions, deliveries read
 * back, lead import of messy rows with every outcome, idempotent, and tenants kept apart. The same
 * lead requests over real NATS JetStream are in leads-nats.test.ts.
 */
describe.each(DATABASE_MODES)('lead requests, deliveries and lead import on %s', (mode) => {
  let app: TestStack;
  const db = () => app.stack.database.db;
  let ranked: string[];

  /** Posts a lead request and waits until the worker has fulfilled or failed it. */
  async function requestLeads(body: Record<string, unknown>, headers = ACME) {
    const created = await app.post('/v1/lead-requests', body, { headers });
    expect(created.status).toBe(201);
    let done: any;
    await waitFor(async () => {
      const list = await app.get('/v1/lead-requests', { headers });
      done = list.body.lead_requests.find((request: any) => request.id === created.body.id && request.status !== 'open');
      return done !== undefined;
    }, 'the lead request to be handled');
    return { created: created.body, done };
  }

  beforeAll(async () => {
    app = await startTestStack(mode, { faults: fault.faults });
    for (const headers of [ACME, GLOBEX]) expect((await app.get('/v1/me', { headers })).status).toBe(200);
    await loadMarket(db(), 'lead-tx', LEAD_PARCELS);
    await entitleTenant(db(), 'acme', 'lead-tx');
    expect((await app.post('/v1/buyboxes', { name: 'DC', spec: LEAD_SPEC }, { headers: ACME })).status).toBe(201);
    // Discovery's order of the whole market: what deliveries must follow.
    const page = await app.post('/v2/discovery/query', { buy_box: 'DC', limit: 200 }, { headers: ACME });
    expect(page.status).toBe(200);
    ranked = page.body.results.map((row: any) => row.parcel_key);
    expect(ranked.length).toBeGreaterThan(8);
  });
  afterAll(() => app?.close());

  it('answers 201 open, then delivers the best parcels in discovery\'s order, leaving out what the tenant has', async () => {
    // The best parcel is already in the pipeline: it is never delivered.
    const promoted = await app.post('/v2/pipeline/direct', { parcel_key: ranked[0], buy_box: 'DC' }, { headers: ACME });
    expect(promoted.status).toBe(202);

    const { created, done } = await requestLeads({ buy_box: 'DC', count: 3, note: 'first look' });
    expect(created).toMatchObject({ id: expect.stringMatching(UUID), buy_box: 'DC', count: 3, note: 'first look', status: 'open', delivery_id: null });
    expect(done).toMatchObject({ status: 'fulfilled', delivery_id: expect.stringMatching(UUID), failure_code: null });

    const delivery = await app.get(`/v1/deliveries/${done.delivery_id}`, { headers: ACME });
    expect(delivery.status).toBe(200);
    expect(delivery.body.leads.map((lead: any) => lead.parcel_key)).toEqual(ranked.slice(1, 4));
    expect(delivery.body.leads.map((lead: any) => lead.rank)).toEqual([1, 2, 3]);
    expect(delivery.body.lead_request).toMatchObject({ id: created.id, status: 'fulfilled', delivery_id: done.delivery_id });
    expect(delivery.body.buy_box).toMatchObject({ name: 'DC', spec_hash: expect.stringMatching(/^[0-9a-f]{64}$/), applied_spec: { markets: ['lead-tx'] } });
    const first = delivery.body.leads[0];
    const scores = await app.post('/v2/discovery/query', { buy_box: 'DC', limit: 200 }, { headers: ACME });
    const fromDiscovery = scores.body.results.find((row: any) => row.parcel_key === first.parcel_key);
    expect(first).toMatchObject({ apn: fromDiscovery.apn, acres: fromDiscovery.acres, score: fromDiscovery.score, verdict: fromDiscovery.verdict });

    // Each lead is a property with its screen, as a promoted parcel is (its site report reads it).
    const property = await app.get(`/v1/properties/${first.property_id}`, { headers: ACME });
    expect(property.status).toBe(200);
    expect(property.body.property.parcel_key).toBe(first.parcel_key);
    expect(property.body.deep_screen).toMatchObject({ buy_box: 'DC', verdict: first.verdict, score: first.score });

    // A second request leaves out the first delivery too.
    const second = await requestLeads({ buy_box: 'DC', count: 2 });
    const next = await app.get(`/v1/deliveries/${second.done.delivery_id}`, { headers: ACME });
    expect(next.body.leads.map((lead: any) => lead.parcel_key)).toEqual(ranked.slice(4, 6));

    const list = await app.get('/v1/deliveries', { headers: ACME });
    expect(list.status).toBe(200);
    expect(list.body.deliveries.map((row: any) => [row.id, row.lead_request_id, row.lead_count])).toEqual([
      [second.done.delivery_id, second.created.id, 2],
      [done.delivery_id, created.id, 3],
    ]);
  });

  it('delivers what is left when fewer remain, then fails a request with nothing left; no provider call, no spend', async () => {
    const before = await sql<{ n: number }>`select count(*)::int as n from pipeline.delivery_leads`.execute(db());
    const rest = await requestLeads({ buy_box: 'DC', count: 500 });
    expect(rest.done.status).toBe('fulfilled');
    const delivered = await app.get(`/v1/deliveries/${rest.done.delivery_id}`, { headers: ACME });
    const everyDelivered = await sql<{ parcel_key: string }>`select parcel_key from pipeline.delivery_leads`.execute(db());
    // Every ranked parcel is now delivered once or was promoted, none twice.
    expect(new Set(everyDelivered.rows.map((row) => row.parcel_key)).size).toBe(everyDelivered.rows.length);
    expect(everyDelivered.rows.length).toBe(ranked.length - 1);
    expect(delivered.body.leads.length).toBe(ranked.length - 1 - before.rows[0]!.n);

    const empty = await requestLeads({ buy_box: 'DC', count: 1 });
    expect(empty.done).toMatchObject({ status: 'failed', delivery_id: null, failure_code: 'no_leads_available', failure_reason: expect.any(String) });
    const spend = await sql<{ n: number }>`select count(*)::int as n from diligence.cost_ledger`.execute(db());
    expect(spend.rows[0]!.n).toBe(0);
  });

  it('validates lead requests (D1), 404s an unknown buy box, and keeps tenants apart', async () => {
    for (const count of [0, 501, 'ten']) {
      const refused = await app.post('/v1/lead-requests', { buy_box: 'DC', count }, { headers: ACME });
      expect(refused.status).toBe(422);
      expect(refused.body.detail[0].loc).toEqual(['body', 'count']);
    }
    const missing = await app.post('/v1/lead-requests', { buy_box: 'Nope', count: 1 }, { headers: ACME });
    expect([missing.status, missing.body.code]).toEqual([404, 'buy_box_not_found']);
    const noBody = await app.post('/v1/lead-requests', { count: 1 }, { headers: ACME });
    expect(noBody.status).toBe(422);

    const deliveries = await app.get('/v1/deliveries', { headers: ACME });
    const someDelivery = deliveries.body.deliveries[0].id;
    const other = await app.get(`/v1/deliveries/${someDelivery}`, { headers: GLOBEX });
    expect([other.status, other.body.code]).toEqual([404, 'delivery_not_found']);
    expect((await app.get('/v1/deliveries/not-a-uuid', { headers: ACME })).status).toBe(404);
    expect((await app.get('/v1/deliveries', { headers: GLOBEX })).body).toEqual({ deliveries: [] });
    expect((await app.get('/v1/lead-requests', { headers: GLOBEX })).body).toEqual({ lead_requests: [] });
  });

  describe('lead import', () => {
    const messyRows = () => [
      { ref: 'by-apn', apn: 'L-001' },
      { ref: 'apn-as-typed', apn: ' l 002 ' },
      { ref: 'by-address', address: '3 LEAD RD.' },
      { ref: 'by-point', ...centreOf(LEAD_PARCELS[3]!) },
      { ref: 'unknown-apn', apn: 'NOPE-999' },
      { ref: 'empty' },
      { ref: 'bad-lat', lat: 95, lon: -97.5 },
      { ref: 'shared', address: '100 Shared Road' },
      { ref: 12345, apn: 12345 },
      { ref: 'far-away', lat: 10, lon: 10 },
      { ref: 'lat-only', lat: 30.1 },
    ];

    it('reports every row in order with its outcome, and importing again creates nothing new', async () => {
      const first = await app.post('/v1/leads/import', { market: 'lead-tx', rows: messyRows() }, { headers: ACME });
      expect(first.status).toBe(201);
      const rows = first.body.rows;
      expect(rows.map((row: any) => [row.ref, row.status])).toEqual([
        ['by-apn', 'resolved'],
        ['apn-as-typed', 'resolved'],
        ['by-address', 'resolved'],
        ['by-point', 'resolved'],
        ['unknown-apn', 'not_found'],
        ['empty', 'invalid'],
        ['bad-lat', 'invalid'],
        ['shared', 'ambiguous'],
        ['12345', 'resolved'],
        ['far-away', 'not_found'],
        ['lat-only', 'invalid'],
      ]);
      expect(rows.map((row: any) => row.row)).toEqual([...rows.keys()]);
      expect(rows[0]).toMatchObject({ matched_by: 'apn', parcel_key: 'lt-1', property_id: expect.stringMatching(UUID) });
      expect(rows[1]).toMatchObject({ matched_by: 'apn', parcel_key: 'lt-2' });
      expect(rows[2]).toMatchObject({ matched_by: 'address', parcel_key: 'lt-3' });
      expect(rows[3]).toMatchObject({ matched_by: 'point', parcel_key: 'lt-4' });
      expect(rows[5].reason).toMatch(/apn, address or lat\/lon/);
      expect(rows[6].reason).toMatch(/lat 95 is out of range/);
      expect(rows[7].candidates.map((candidate: any) => candidate.parcel_key).sort()).toEqual(['lt-shared-a', 'lt-shared-b']);
      expect(rows[8]).toMatchObject({ parcel_key: 'lt-numeric' });
      expect(rows[10].reason).toMatch(/lat is given without lon/);
      expect(first.body.summary).toEqual({ resolved: 5, ambiguous: 1, not_found: 2, invalid: 3, properties_created: expect.any(Number), pipeline_items_created: 0 });

      const again = await app.post('/v1/leads/import', { market: 'lead-tx', rows: messyRows() }, { headers: ACME });
      expect(again.status).toBe(201);
      expect(again.body.rows).toEqual(rows);
      expect(again.body.summary).toMatchObject({ properties_created: 0, pipeline_items_created: 0 });
      const properties = await sql<{ n: number }>`
        select count(*)::int as n from pipeline.properties where parcel_key in ('lt-1', 'lt-2', 'lt-3', 'lt-4', 'lt-numeric')`.execute(db());
      expect(properties.rows[0]!.n).toBe(5);
    });

    it('screens against a buy box and puts the rows on the board when asked, once', async () => {
      const rows = [{ apn: 'L-007' }, { apn: 'L-008' }, { apn: 'L-007', ref: 'same parcel twice' }];
      const body = { market: 'lead-tx', rows, buy_box: 'DC', add_to_pipeline: true };
      const first = await app.post('/v1/leads/import', body, { headers: ACME });
      expect(first.status).toBe(201);
      expect(first.body.summary).toMatchObject({ resolved: 3, pipeline_items_created: 2 });
      const [a, b, again] = first.body.rows;
      expect(again.property_id).toBe(a.property_id);
      expect(again.pipeline_item_id).toBe(a.pipeline_item_id);
      for (const row of [a, b]) {
        expect(row).toMatchObject({ pipeline_item_id: expect.stringMatching(UUID), verdict: expect.stringMatching(/^(PURSUE|MONITOR|HOLD)$/), score: expect.any(Number), eligible: expect.any(Boolean) });
        const page = await app.get(`/v1/properties/${row.property_id}`, { headers: ACME });
        // Delivered earlier, these parcels already hold their screen for this spec: the import finds it.
        expect(page.body.deep_screen).toMatchObject({ buy_box: 'DC', verdict: row.verdict, score: row.score });
        expect(page.body.property.pipeline_item).toMatchObject({ id: row.pipeline_item_id, stage: 'new', screen_status: 'queued' });
      }
      const repeated = await app.post('/v1/leads/import', body, { headers: ACME });
      expect(repeated.body.rows).toEqual(first.body.rows);
      expect(repeated.body.summary).toMatchObject({ properties_created: 0, pipeline_items_created: 0 });
      const board = await app.get('/v1/pipeline', { headers: ACME });
      expect(board.body.items.filter((item: any) => item.property.parcel_key === 'lt-7')).toHaveLength(1);
      const jobs = await sql<{ n: number }>`select count(*)::int as n from diligence.jobs where property_id = ${a.property_id}`.execute(db());
      expect(jobs.rows[0]!.n).toBe(1);
    });

    it('a crash before the import commits leaves no property, card or job behind', async () => {
      const body = { market: 'lead-tx', rows: [{ apn: 'L-012' }, { apn: 'F-1' }], buy_box: 'DC', add_to_pipeline: true };
      const before = await sql<{ n: number }>`select count(*)::int as n from pipeline.items`.execute(db());
      const crashed = await fault.armedAt(IMPORT_FAULT_BEFORE_COMMIT, () => app.post('/v1/leads/import', body, { headers: ACME }));
      expect([crashed.status, crashed.body.code]).toEqual([500, 'internal']);
      const left = await sql<{ n: number }>`select count(*)::int as n from pipeline.properties where parcel_key = 'lt-flood'`.execute(db());
      expect(left.rows[0]!.n).toBe(0);
      expect((await sql<{ n: number }>`select count(*)::int as n from pipeline.items`.execute(db())).rows[0]!.n).toBe(before.rows[0]!.n);
      const retried = await app.post('/v1/leads/import', body, { headers: ACME });
      expect(retried.status).toBe(201);
      expect(retried.body.rows[1]).toMatchObject({ status: 'resolved', parcel_key: 'lt-flood', verdict: 'HOLD', eligible: false, pipeline_item_id: expect.stringMatching(UUID) });
    });

    it('two concurrent imports of the same rows make one set of rows', async () => {
      const body = { market: 'lead-tx', rows: [{ apn: 'L-009' }, { apn: 'L-010' }, { address: '11 Lead Road' }], buy_box: 'DC', add_to_pipeline: true };
      const [one, two] = await Promise.all([
        app.post('/v1/leads/import', body, { headers: ACME }),
        app.post('/v1/leads/import', body, { headers: ACME }),
      ]);
      expect([one.status, two.status]).toEqual([201, 201]);
      expect(two.body.rows.map((row: any) => row.property_id)).toEqual(one.body.rows.map((row: any) => row.property_id));
      expect(two.body.rows.map((row: any) => row.pipeline_item_id)).toEqual(one.body.rows.map((row: any) => row.pipeline_item_id));
      const counts = await sql<{ properties: number; items: number; matches: number; jobs: number }>`
        select (select count(*)::int from pipeline.properties where parcel_key in ('lt-9', 'lt-10', 'lt-11')) as properties,
               (select count(*)::int from pipeline.items i join pipeline.properties p on p.id = i.property_id where p.parcel_key in ('lt-9', 'lt-10', 'lt-11')) as items,
               (select count(*)::int from pipeline.buy_box_matches m join pipeline.properties p on p.id = m.property_id where p.parcel_key in ('lt-9', 'lt-10', 'lt-11')) as matches,
               (select count(*)::int from diligence.jobs where parcel_key in ('lt-9', 'lt-10', 'lt-11')) as jobs`.execute(db());
      expect(counts.rows[0]).toEqual({ properties: 3, items: 3, matches: 3, jobs: 3 });
    });

    it('validates the request (D1), refuses a market not entitled (403) and a buy box of another market', async () => {
      const empty = await app.post('/v1/leads/import', { market: 'lead-tx', rows: [] }, { headers: ACME });
      expect([empty.status, empty.body.detail[0].loc, empty.body.detail[0].type]).toEqual([422, ['body', 'rows'], 'too_short']);
      const tooMany = await app.post('/v1/leads/import', { market: 'lead-tx', rows: Array.from({ length: 10_001 }, () => ({ apn: 'x' })) }, { headers: ACME });
      expect([tooMany.status, tooMany.body.detail[0].type]).toEqual([422, 'too_long']);
      const badLat = await app.post('/v1/leads/import', { market: 'lead-tx', rows: [{ lat: 'north' , lon: 1 }] }, { headers: ACME });
      expect(badLat.status).toBe(422);
      const notEntitled = await app.post('/v1/leads/import', { market: 'lead-tx', rows: [{ apn: 'L-001' }] }, { headers: GLOBEX });
      expect([notEntitled.status, notEntitled.body.code]).toEqual([403, 'not_entitled']);
      const unknownMarket = await app.post('/v1/leads/import', { market: 'nowhere', rows: [{ apn: 'L-001' }] }, { headers: ACME });
      expect(unknownMarket.status).toBe(404);
      const unknownBox = await app.post('/v1/leads/import', { market: 'lead-tx', rows: [{ apn: 'L-001' }], buy_box: 'Nope' }, { headers: ACME });
      expect([unknownBox.status, unknownBox.body.code]).toEqual([404, 'buy_box_not_found']);
    });
  });
});
