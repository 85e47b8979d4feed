import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { STAGES } from '../../services/pipeline/src/board/stages.js';
import { DATABASE_MODES, entitleTenant, faultSwitch, loadMarket, startTestStack, type TestStack } from '@landscreen/testing';

const ACME = { authorization: 'Bearer dev:ann@acme.test', 'x-tenant': 'acme' };
const GLOBEX = { authorization: 'Bearer dev:gil@globex.test', 'x-tenant': 'globex' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const point = (lon: number, lat: number) => ({ type: 'Point' as const, coordinates: [lon, lat] });

const PARCELS = [
  { parcel_key: 'tx-1', apn: 'B-001', address: '1 Grid Road', acres: 120, within_floodplain_polygon: false, nearest_substation_distance_m: 900 },
  { parcel_key: 'tx-2', apn: 'B-002', address: '2 Grid Road', acres: 90, within_floodplain_polygon: false, nearest_substation_distance_m: 8000 },
  { parcel_key: 'tx-3', apn: 'B-003', address: '3 Grid Road', acres: 300, within_floodplain_polygon: true, nearest_substation_distance_m: 100 },
  { parcel_key: 'tx-4', apn: 'B-004', address: '4 Grid Road', acres: 20, within_floodplain_polygon: false, nearest_substation_distance_m: 100 },
  { parcel_key: 'tx-5', apn: 'B-005', address: '5 Grid Road', acres: 75, within_floodplain_polygon: false, nearest_substation_distance_m: 2000 },
  { parcel_key: 'tx-6', apn: 'B-006', address: '6 Grid Road', acres: 66, within_floodplain_polygon: false, nearest_substation_distance_m: 2500 },
].map((properties, index) => ({ geometry: point(-97.5 + index * 0.01, 30.1), properties }));

const SPEC = {
  markets: ['pipe-tx'],
  must: [
    { field: 'acres', op: '>=', value: 50 },
    { field: 'within_floodplain_polygon', op: 'eq', value: false },
  ],
  preferred: [{ field: 'nearest_substation_distance_m', op: 'lte', value: 3000, weight: 1 }],
  verdict_cutoffs: { pursue: 70, monitor: 40 },
};

const fault = faultSwitch();

describe.each(DATABASE_MODES)('promotion, the board and properties on %s', (mode) => {
  let app: TestStack;
  let queryHash: string;
  let vintageId: string;
  const db = () => app.stack.database.db;
  const count = async (table: string) => Number((await sql<{ n: string }>`select count(*) as n from ${sql.raw(table)}`.execute(db())).rows[0]!.n);
  const promote = (body: Record<string, unknown>, headers = ACME) => app.post('/v2/pipeline', body, { headers });
  const direct = (body: Record<string, unknown>, headers = ACME) => app.post('/v2/pipeline/direct', body, { headers });
  const board = (query = '', headers = ACME) => app.get(`/v1/pipeline${query}`, { headers });
  const patch = (id: string, body: Record<string, unknown>, headers = ACME) => app.patch(`/v1/pipeline/${id}`, body, { headers });

  beforeAll(async () => {
    app = await startTestStack(mode, { faults: fault.faults });
    for (const headers of [ACME, GLOBEX]) expect((await app.get('/v1/me', { headers })).status).toBe(200);
    vintageId = (await loadMarket(db(), 'pipe-tx', PARCELS)).vintageId;
    await entitleTenant(db(), 'acme', 'pipe-tx');
    expect((await app.post('/v1/buyboxes', { name: 'DC', spec: SPEC }, { headers: ACME })).status).toBe(201);
    const ranked = await app.post('/v2/discovery/query', { buy_box: 'DC' }, { headers: ACME });
    expect(ranked.status).toBe(200);
    queryHash = ranked.body.query_hash;
  });
  afterAll(() => app?.close());

  it('promotes a ranked parcel in one go and answers the same four ids when repeated (D19)', async () => {
    const first = await promote({ parcel_key: 'tx-1', buy_box: 'DC', query_hash: queryHash });
    expect(first.status).toBe(202);
    expect(first.body).toEqual({
      property_id: expect.stringMatching(UUID),
      pipeline_item_id: expect.stringMatching(UUID),
      buy_box_match_id: expect.stringMatching(UUID),
      diligence_job_id: expect.stringMatching(UUID),
      status: 'created',
    });
    const again = await promote({ parcel_key: 'tx-1', buy_box: 'DC', query_hash: queryHash });
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ ...first.body, status: 'existing' });
  });

  it('queues the job with an outbox event, and calls no provider, contacts no one, charges nothing', async () => {
    const { body } = await promote({ parcel_key: 'tx-1', buy_box: 'DC', query_hash: queryHash });
    const job = await sql<{ status: string }>`select status from diligence.jobs where id = ${body.diligence_job_id}`.execute(db());
    expect(job.rows).toEqual([{ status: 'queued' }]);
    const events = await sql<{ subject: string }>`select subject from diligence.outbox where data->>'job_id' = ${body.diligence_job_id}`.execute(db());
    expect(events.rows).toEqual([{ subject: 'diligence.job.created' }]);
    expect(await count('diligence.cost_ledger')).toBe(0);
    expect(await count('diligence.contacts')).toBe(0);
  });

  it('refuses a parcel failing a must-have with 409 must_failed and the failed evidence', async () => {
    const refused = await promote({ parcel_key: 'tx-3', buy_box: 'DC', query_hash: queryHash });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('must_failed');
    expect(refused.body.failed).toEqual([{ field: 'within_floodplain_polygon', value: true, status: 'fail' }]);
    expect((await sql`select 1 from pipeline.properties where parcel_key = 'tx-3'`.execute(db())).rows).toHaveLength(0);
  });

  it('answers 409 stale_query for a hash that is not the current one, 404 for unknown parcels and boxes', async () => {
    expect((await promote({ parcel_key: 'tx-1', buy_box: 'DC', query_hash: 'f'.repeat(64) })).body.code).toBe('stale_query');
    const missingParcel = await promote({ parcel_key: 'nope', buy_box: 'DC', query_hash: queryHash });
    expect([missingParcel.status, missingParcel.body.code]).toEqual([404, 'parcel_not_found']);
    const missingBox = await promote({ parcel_key: 'tx-1', buy_box: 'Nope', query_hash: queryHash });
    expect([missingBox.status, missingBox.body.code]).toEqual([404, 'buy_box_not_found']);
  });

  it('screens a failing parcel directly as HOLD with its failed evidence, which discovery never shows', async () => {
    const before = await app.post('/v2/discovery/query', { buy_box: 'DC' }, { headers: ACME });
    const saved = await direct({ parcel_key: 'tx-4', buy_box: 'DC', vintage_id: vintageId });
    expect(saved.status).toBe(202);
    expect(saved.body.status).toBe('created');
    const page = await app.get(`/v1/properties/${saved.body.property_id}`, { headers: ACME });
    expect(page.status).toBe(200);
    expect(page.body.deep_screen).toMatchObject({ verdict: 'HOLD', source: 'direct', eligible: false, failed: [{ field: 'acres', value: 20, status: 'fail' }] });
    expect(page.body.deep_screen.evaluation.score_breakdown.must[0]).toEqual({ field: 'acres', value: 20, status: 'fail' });
    const after = await app.post('/v2/discovery/query', { buy_box: 'DC' }, { headers: ACME });
    expect(after.body.results).toEqual(before.body.results);
    expect(after.body.results.map((row: any) => row.parcel_key)).not.toContain('tx-4');
  });

  it('direct screening checks the vintage (409 stale_vintage) and takes no draft', async () => {
    const stale = await direct({ parcel_key: 'tx-5', buy_box: 'DC', vintage_id: '00000000-0000-4000-8000-000000000000' });
    expect([stale.status, stale.body.code]).toEqual([409, 'stale_vintage']);
    expect((await direct({ parcel_key: 'tx-5', buy_box: 'DC', draft: SPEC })).status).toBe(422);
  });

  it('keeps tenants apart: not entitled is 403; another tenant\'s property and item are 404', async () => {
    await app.post('/v1/buyboxes', { name: 'DC', spec: SPEC }, { headers: GLOBEX });
    const refused = await direct({ parcel_key: 'tx-1', buy_box: 'DC' }, GLOBEX);
    expect([refused.status, refused.body.code]).toEqual([403, 'not_entitled']);
    const { body } = await promote({ parcel_key: 'tx-1', buy_box: 'DC', query_hash: queryHash });
    expect((await app.get(`/v1/properties/${body.property_id}`, { headers: GLOBEX })).status).toBe(404);
    expect((await patch(body.pipeline_item_id, { notes: 'mine now' }, GLOBEX)).status).toBe(404);
    expect((await board('', GLOBEX)).body.items).toEqual([]);
    expect((await app.post('/v1/pipeline', { property_id: body.property_id }, { headers: GLOBEX })).status).toBe(404);
  });

  it('shows the property page: the property, its card, the stored deep screen, contacts and diligence (D28)', async () => {
    const { body } = await promote({ parcel_key: 'tx-1', buy_box: 'DC', query_hash: queryHash });
    const page = await app.get(`/v1/properties/${body.property_id}`, { headers: ACME });
    expect(page.status).toBe(200);
    expect(page.body.property).toMatchObject({ id: body.property_id, parcel_key: 'tx-1', market: 'pipe-tx', apn: 'B-001', vintage_id: vintageId });
    expect(page.body.property.pipeline_item).toMatchObject({ id: body.pipeline_item_id, screen_status: 'queued' });
    expect(page.body.deep_screen).toMatchObject({ buy_box_match_id: body.buy_box_match_id, buy_box: 'DC', verdict: 'PURSUE', score: 100, source: 'ranked', query_hash: queryHash });
    expect(page.body.contacts).toEqual([]);
    expect(page.body.diligence).toMatchObject({ job_id: body.diligence_job_id, status: 'queued' });
    expect(JSON.stringify(page.body.diligence)).not.toMatch(/cost/);
    expect((await app.get('/v1/properties/not-a-uuid', { headers: ACME })).status).toBe(404);
  });

  it('adds properties to the board idempotently, by property id or by market and parcel key', async () => {
    const byParcel = await app.post('/v1/pipeline', { market: 'pipe-tx', parcel_key: 'tx-2' }, { headers: ACME });
    expect(byParcel.status).toBe(202);
    expect(byParcel.body).toMatchObject({ stage: 'new', screen_status: 'queued', property: { parcel_key: 'tx-2', market: 'pipe-tx' } });
    const byId = await app.post('/v1/pipeline', { property_id: byParcel.body.property_id }, { headers: ACME });
    expect(byId.status).toBe(202);
    expect(byId.body.id).toBe(byParcel.body.id);
    const again = await app.post('/v1/pipeline', { market: 'pipe-tx', parcel_key: 'tx-2' }, { headers: ACME });
    expect(again.body.id).toBe(byParcel.body.id);
    expect((await sql`select 1 from pipeline.items i join pipeline.properties p on p.id = i.property_id where p.parcel_key = 'tx-2'`.execute(db())).rows).toHaveLength(1);
    expect((await app.post('/v1/pipeline', { market: 'pipe-tx', parcel_key: 'missing' }, { headers: ACME })).status).toBe(404);
    expect((await app.post('/v1/pipeline', { property_id: '00000000-0000-4000-8000-000000000000' }, { headers: ACME })).status).toBe(404);
    expect((await app.post('/v1/pipeline', {}, { headers: ACME })).status).toBe(422);
  });

  it('follows the stage state table row by row', async () => {
    const { body } = await app.post('/v1/pipeline', { market: 'pipe-tx', parcel_key: 'tx-6' }, { headers: ACME });
    const id = body.id;
    const stageAfter = async (change: Record<string, unknown>) => {
      const answer = await patch(id, change);
      expect(answer.status).toBe(200);
      return answer.body.stage;
    };
    expect(await stageAfter({ stage: 'researching' })).toBe('researching');
    expect(await stageAfter({ stage: 'negotiating', archived: true })).toBe('negotiating');
    expect(await stageAfter({ archived: true })).toBe('archived');
    expect(await stageAfter({ archived: false })).toBe('new');
    expect(await stageAfter({ archived: false })).toBe('new');
    expect(await stageAfter({ notes: 'call the owner' })).toBe('new');
    expect((await patch(id, {})).body.notes).toBe('call the owner');
    expect((await patch(id, { notes: null })).body.notes).toBeNull();
    const unknown = await patch(id, { stage: 'sold' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0].loc).toEqual(['body', 'stage']);
    expect((await board()).body.items.find((item: any) => item.id === id).stage).toBe('new');
    expect((await patch('00000000-0000-4000-8000-000000000000', { stage: 'new' })).status).toBe(404);
    expect((await patch('not-a-uuid', { stage: 'new' })).status).toBe(404);
  });

  it('orders the board by stage then position, reorders within a stage, and hides archived cards', async () => {
    const keys = ['tx-1', 'tx-2', 'tx-5', 'tx-6'];
    for (const key of keys) await app.post('/v1/pipeline', { market: 'pipe-tx', parcel_key: key }, { headers: ACME });
    const cards = async (query = '') => (await board(query)).body.items.map((item: any) => [item.property.parcel_key, item.stage, item.position]);
    const idOf = async (key: string) => (await board('?archived=true')).body.items.find((item: any) => item.property.parcel_key === key).id;
    for (const key of keys) await patch(await idOf(key), { stage: 'new' });
    await patch(await idOf('tx-4'), { archived: true });
    // A card moved to a stage goes last in it (D18); then tx-6 is put first.
    for (const key of keys) await patch(await idOf(key), { stage: 'researching' });
    await patch(await idOf('tx-6'), { position: 0 });
    await patch(await idOf('tx-2'), { stage: 'contacted' });
    expect(await cards()).toEqual([
      ['tx-6', 'researching', 0],
      ['tx-1', 'researching', 1],
      ['tx-5', 'researching', 2],
      ['tx-2', 'contacted', 0],
    ]);
    expect(await cards('?stage=researching')).toHaveLength(3);
    expect(await cards('?archived=true')).toContainEqual(['tx-4', 'archived', 0]);
    expect(await cards('?stage=archived')).toEqual([['tx-4', 'archived', 0]]);
    expect((await board('?stage=sold')).status).toBe(422);
  });

  it('finds a card by every stage it is moved to (stage filters read the board index by stage rank)', async () => {
    const { body } = await app.post('/v1/pipeline', { market: 'pipe-tx', parcel_key: 'tx-3' }, { headers: ACME });
    for (const stage of STAGES) {
      expect((await patch(body.id, { stage })).body).toMatchObject({ stage, position: expect.any(Number) });
      const column = (await board(`?stage=${stage}`)).body.items;
      expect(column.map((item: any) => item.id)).toContain(body.id);
      expect(column.every((item: any) => item.stage === stage)).toBe(true);
      expect(column.find((item: any) => item.id === body.id).position).toBe(column.length - 1);
    }
  });

  it('a fault after the job insert leaves no row at all', async () => {
    const tables = ['pipeline.properties', 'pipeline.items', 'pipeline.buy_box_matches', 'diligence.jobs', 'diligence.steps', 'diligence.outbox'];
    const before = await Promise.all(tables.map(count));
    const failed = await fault.armedAt('pipeline.promote.after_job', () => promote({ parcel_key: 'tx-5', buy_box: 'DC', query_hash: queryHash }));
    expect(failed.status).toBe(500);
    expect(await Promise.all(tables.map(count))).toEqual(before);
  });

  it('50 concurrent identical promotions answer the same four ids and write one row of each kind', async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, () => promote({ parcel_key: 'tx-6', buy_box: 'DC', query_hash: queryHash })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(202));
    const ids = new Set(answers.map(({ body: { status: _status, ...ids } }) => JSON.stringify(ids)));
    expect(ids.size).toBe(1);
    const { property_id: propertyId } = answers[0]!.body;
    const rows = await sql<{ items: number; matches: number; jobs: number; events: number }>`
      select (select count(*)::int from pipeline.items where property_id = ${propertyId}) as items,
             (select count(*)::int from pipeline.buy_box_matches where property_id = ${propertyId}) as matches,
             (select count(*)::int from diligence.jobs where property_id = ${propertyId}) as jobs,
             (select count(*)::int from diligence.outbox o join diligence.jobs j on o.data->>'job_id' = j.id::text where j.property_id = ${propertyId}) as events`.execute(db());
    expect(rows.rows[0]).toEqual({ items: 1, matches: 1, jobs: 1, events: 1 });
    expect((await sql`select 1 from pipeline.properties where parcel_key = 'tx-6'`.execute(db())).rows).toHaveLength(1);
  });

  it('answers 409 stale_query once a new vintage is loaded', async () => {
    await loadMarket(db(), 'pipe-tx', PARCELS);
    const stale = await promote({ parcel_key: 'tx-1', buy_box: 'DC', query_hash: queryHash });
    expect([stale.status, stale.body.code]).toEqual([409, 'stale_query']);
    const staleVintage = await direct({ parcel_key: 'tx-1', buy_box: 'DC', vintage_id: vintageId });
    expect([staleVintage.status, staleVintage.body.code]).toEqual([409, 'stale_vintage']);
  });
});
