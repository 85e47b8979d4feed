import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MODES, entitleTenant, loadMarket, startTestStack, type TestStack } from '@landscreen/testing';

const ACME = { authorization: 'Bearer dev:ann@acme.test', 'x-tenant': 'acme' };
const GLOBEX = { authorization: 'Bearer dev:gil@globex.test', 'x-tenant': 'globex' };
const point = (lon: number, lat: number) => ({ type: 'Point' as const, coordinates: [lon, lat] });

/** A market whose every score, verdict and order is worked out by hand below. */
const PARCELS = [
  { parcel_key: 'p1', apn: 'A-001', address: '100 North Main Street', acres: 120, within_floodplain_polygon: false, nearest_substation_distance_m: 1000, zoning: 'industrial' },
  { parcel_key: 'p2', apn: 'A-002', address: '200 Oak Avenue', acres: 80, within_floodplain_polygon: false, nearest_substation_distance_m: 5000, zoning: 'industrial' },
  { parcel_key: 'p3', apn: 'A-003', address: '300 Elm Road', acres: 60, within_floodplain_polygon: null, nearest_substation_distance_m: 2000, zoning: 'agricultural' },
  { parcel_key: 'p4', apn: 'A-004', address: '400 Pine Lane', acres: 40, within_floodplain_polygon: false, nearest_substation_distance_m: 100, zoning: 'industrial' },
  { parcel_key: 'p5', apn: 'A-005', address: '500 Cedar Drive', acres: null, within_floodplain_polygon: false, nearest_substation_distance_m: 100, zoning: 'industrial' },
  { parcel_key: 'p6', apn: 'A-006', address: '600 Birch Court', acres: 200, within_floodplain_polygon: true, nearest_substation_distance_m: 100, zoning: 'industrial' },
  { parcel_key: 'p7', apn: 'A-007', address: '700 Maple Way', acres: 55, within_floodplain_polygon: false, nearest_substation_distance_m: null, zoning: 'industrial', listing_status: 'listed' },
  { parcel_key: 'p8', apn: 'A-008', address: '800 Walnut Boulevard', acres: 90, within_floodplain_polygon: false, nearest_substation_distance_m: 2500, zoning: 'agricultural' },
  { parcel_key: 'p9', apn: 'A-009', address: '101 North Main Street', acres: 70, within_floodplain_polygon: false, nearest_substation_distance_m: 2999, zoning: 'industrial' },
].map((properties, index) => ({ geometry: point(-97.7 + index * 0.01, 30.3), properties }));

const SPEC = {
  markets: ['hand-tx'],
  must: [
    { field: 'acres', op: '>=', value: 50 },
    { field: 'within_floodplain_polygon', op: 'eq', value: false, unknown: 'review' },
  ],
  preferred: [
    { field: 'zoning', op: '=', value: 'industrial', weight: 1 },
    { field: 'nearest_substation_distance_m', op: 'lte', value: 3000, weight: 3 },
  ],
  verdict_cutoffs: { pursue: 70, monitor: 40 },
};

/** [parcel_key, score, verdict, review_required, unknowns], in D15 order. */
const EXPECTED: [string, number, string, boolean, string[]][] = [
  ['p1', 100, 'PURSUE', false, []],
  ['p9', 100, 'PURSUE', false, []],
  ['p3', 75, 'MONITOR', true, ['within_floodplain_polygon']],
  ['p8', 75, 'PURSUE', false, []],
  ['p2', 25, 'HOLD', false, []],
  ['p7', 25, 'HOLD', false, ['nearest_substation_distance_m']],
];

describe.each(DATABASE_MODES)('buy boxes and discovery on %s', (mode) => {
  let app: TestStack;
  let vintageId: string;
  const query = (body: Record<string, unknown>, headers = ACME) => app.post('/v2/discovery/query', body, { headers });

  beforeAll(async () => {
    app = await startTestStack(mode);
    expect((await app.get('/v1/me', { headers: ACME })).status).toBe(200);
    expect((await app.get('/v1/me', { headers: GLOBEX })).status).toBe(200);
    const db = app.stack.database.db;
    vintageId = (await loadMarket(db, 'hand-tx', PARCELS, 'Hand-made Texas')).vintageId;
    await entitleTenant(db, 'acme', 'hand-tx');
    const created = await app.post('/v1/buyboxes', { name: 'Data center 50ac', description: 'Big, dry, near the grid', spec: SPEC }, { headers: ACME });
    expect(created.status).toBe(201);
  });
  afterAll(() => app?.close());

  it('saves a buy box with its canonical spec and hash (D9, D11)', async () => {
    const list = await app.get('/v1/buyboxes', { headers: ACME });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    const [box] = list.body;
    expect(box).toMatchObject({ name: 'Data center 50ac', description: 'Big, dry, near the grid', spec_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(box.spec.must.map((rule: any) => [rule.field, rule.op, rule.unknown])).toEqual([
      ['acres', 'gte', 'exclude'],
      ['within_floodplain_polygon', 'eq', 'review'],
    ]);
    expect(box.spec.preferred.map((rule: any) => rule.field)).toEqual(['nearest_substation_distance_m', 'zoning']);
  });

  it('gives equivalent specs the same hash and different ones a different hash', async () => {
    const equivalent = { ...SPEC, must: [...SPEC.must].reverse().map((rule) => (rule.op === '>=' ? { ...rule, op: 'gte' } : rule)), preferred: [...SPEC.preferred].reverse() };
    const twin = await app.post('/v1/buyboxes', { name: 'Twin', spec: equivalent }, { headers: ACME });
    const other = await app.post('/v1/buyboxes', { name: 'Other', spec: { ...SPEC, verdict_cutoffs: { pursue: 80, monitor: 40 } } }, { headers: ACME });
    const original = (await app.get('/v1/buyboxes', { headers: ACME })).body.find((box: any) => box.name === 'Data center 50ac');
    expect(twin.body.spec_hash).toBe(original.spec_hash);
    expect(other.body.spec_hash).not.toBe(original.spec_hash);
    expect((await app.request('DELETE', '/v1/buyboxes/Twin', { headers: ACME })).status).toBe(204);
    expect((await app.request('DELETE', '/v1/buyboxes/Other', { headers: ACME })).status).toBe(204);
  });

  it('refuses a taken name (409), replaces with PUT, and 404s what does not exist', async () => {
    expect((await app.post('/v1/buyboxes', { name: 'Data center 50ac', spec: SPEC }, { headers: ACME })).status).toBe(409);
    const missing = await app.request('PUT', '/v1/buyboxes/Nope', { body: { spec: SPEC }, headers: ACME });
    expect(missing.status).toBe(404);
    expect((await app.request('DELETE', '/v1/buyboxes/Nope', { headers: ACME })).status).toBe(404);
    await app.post('/v1/buyboxes', { name: 'Scratch', spec: SPEC }, { headers: ACME });
    const replaced = await app.request('PUT', '/v1/buyboxes/Scratch', { body: { spec: { ...SPEC, verdict_cutoffs: { pursue: 90, monitor: 10 } } }, headers: ACME });
    expect(replaced.status).toBe(200);
    expect(replaced.body.spec.verdict_cutoffs).toEqual({ pursue: 90, monitor: 10 });
    expect((await app.request('DELETE', '/v1/buyboxes/Scratch', { headers: ACME })).status).toBe(204);
  });

  it('refuses rules on fields nobody knows, and unknown ops, on the rule\'s loc (D10)', async () => {
    const bad = { ...SPEC, must: [{ field: 'acreage', op: 'gte', value: 5 }, { field: 'acres', op: 'approximately', value: 5 }] };
    const response = await app.post('/v1/buyboxes', { name: 'Bad', spec: bad }, { headers: ACME });
    expect(response.status).toBe(422);
    const locs = response.body.detail.map((issue: any) => issue.loc.join('.'));
    expect(locs).toContain('body.spec.must.0.field');
    expect(locs).toContain('body.spec.must.1.op');
  });

  it('ranks the market with evidence for every rule (D13, D14, D15)', async () => {
    const response = await query({ buy_box: 'Data center 50ac' });
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body).toMatchObject({
      market: 'hand-tx',
      vintage_id: vintageId,
      query_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      denominator: 9,
      preference_weight_total: 4,
      eligible_total: 6,
      next_cursor: null,
    });
    expect(body.results.map((row: any) => [row.parcel_key, row.score, row.verdict, row.review_required, row.unknowns])).toEqual(EXPECTED);
    const p3 = body.results.find((row: any) => row.parcel_key === 'p3');
    expect(p3.score_breakdown).toEqual({
      must: [
        { field: 'acres', value: 60, status: 'pass' },
        { field: 'within_floodplain_polygon', value: null, status: 'unknown' },
      ],
      preferred: [
        { field: 'nearest_substation_distance_m', value: 2000, weight: 3, contribution: 3 },
        { field: 'zoning', value: 'agricultural', weight: 1, contribution: 0 },
      ],
    });
    expect(p3).toMatchObject({ apn: 'A-003', address: '300 Elm Road', acres: 60, lat: 30.3, geometry: { type: 'Point' } });
    expect(p3.facts).toMatchObject({ acres: 60, zoning: 'agricultural', nearest_substation_distance_m: 2000 });
    const p7 = body.results.find((row: any) => row.parcel_key === 'p7');
    expect(p7.facts.listing_status).toBe('listed');
  });

  it('pages with signed cursors through every eligible parcel exactly once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await query({ buy_box: 'Data center 50ac', limit: 2, ...(cursor && { cursor }) });
      expect(page.status).toBe(200);
      seen.push(...page.body.results.map((row: any) => row.parcel_key));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(EXPECTED.map(([key]) => key));
  });

  it('refuses a tampered cursor and a cursor of another query on ["body","cursor"]', async () => {
    const first = await query({ buy_box: 'Data center 50ac', limit: 2 });
    const cursor: string = first.body.next_cursor;
    const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('AA') ? 'BB' : 'AA'}`;
    for (const bad of [tampered, 'not-a-cursor']) {
      const response = await query({ buy_box: 'Data center 50ac', limit: 2, cursor: bad });
      expect(response.status).toBe(422);
      expect(response.body.detail[0].loc).toEqual(['body', 'cursor']);
    }
    const draft = { ...SPEC, verdict_cutoffs: { pursue: 60, monitor: 20 } };
    const other = await query({ buy_box: 'Data center 50ac', draft, limit: 2, cursor });
    expect(other.status).toBe(422);
  });

  it('applies a draft instead of the saved spec, with its own query_hash', async () => {
    const saved = await query({ buy_box: 'Data center 50ac' });
    const draft = { ...SPEC, must: [{ field: 'acres', op: 'gte', value: 100 }] };
    const response = await query({ buy_box: 'Data center 50ac', draft });
    expect(response.status).toBe(200);
    expect(response.body.query_hash).not.toBe(saved.body.query_hash);
    expect(response.body.results.map((row: any) => row.parcel_key)).toEqual(['p1', 'p6']);
  });

  it('tells imported facts from computed ones in each result\'s provenance (D13)', async () => {
    // 0.01° square near Austin with no acres given: the import computes them from the geometry.
    const square = { type: 'Polygon' as const, coordinates: [[[-97.75, 30.25], [-97.74, 30.25], [-97.74, 30.26], [-97.75, 30.26], [-97.75, 30.25]]] };
    const db = app.stack.database.db;
    const area = await loadMarket(db, 'area-tx', [
      { geometry: square, properties: { parcel_key: 'sq', apn: 'S-1', zoning: 'industrial', slope_degrees: 2 } },
      { geometry: square, properties: { parcel_key: 'given', apn: 'S-2', acres: 10, zoning: 'industrial' } },
      // A file's column named "__proto__" is a free fact like any other, and lends nothing.
      { geometry: square, properties: JSON.parse('{"parcel_key":"odd","apn":"S-3","acres":5,"zoning":"industrial","__proto__":{"slope_degrees":1}}') },
    ]);
    await entitleTenant(db, 'acme', 'area-tx');
    const response = await query({ buy_box: 'Data center 50ac', draft: { ...SPEC, markets: ['area-tx'], must: [{ field: 'zoning', op: '=', value: 'industrial' }] } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const byKey = Object.fromEntries(response.body.results.map((row: any) => [row.parcel_key, row]));
    const imported = { source: 'import', vintage_id: area.vintageId };
    expect(byKey.sq.acres).toBe(263.9138);
    expect(byKey.sq.provenance).toEqual({
      acres: { source: 'computed', formula: 'geodesic_area', formula_version: 1, vintage_id: area.vintageId },
      apn: imported,
      zoning: imported,
      slope_degrees: imported,
    });
    expect(byKey.given.provenance).toEqual({ acres: imported, apn: imported, zoning: imported });
    expect(Object.hasOwn(byKey.odd.facts, '__proto__')).toBe(true);
    expect(byKey.odd.facts['__proto__']).toEqual({ slope_degrees: 1 });
    expect(byKey.odd.facts.slope_degrees).toBeUndefined();
  });

  it('answers 403 not_entitled to a tenant without the market, and 404 for another tenant\'s box', async () => {
    await app.post('/v1/buyboxes', { name: 'Globex box', spec: SPEC }, { headers: GLOBEX });
    const refused = await query({ buy_box: 'Globex box' }, GLOBEX);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('not_entitled');
    expect((await query({ buy_box: 'Data center 50ac' }, GLOBEX)).status).toBe(404);
    expect((await app.get('/v1/buyboxes', { headers: GLOBEX })).body.map((box: any) => box.name)).toEqual(['Globex box']);
    expect((await app.request('PUT', '/v1/buyboxes/Data%20center%2050ac', { body: { spec: SPEC }, headers: GLOBEX })).status).toBe(404);
    expect((await app.request('DELETE', '/v1/buyboxes/Data%20center%2050ac', { headers: GLOBEX })).status).toBe(404);
  });

  it('counts and lists leads, count_only in the query or the body (D29)', async () => {
    const counted = await app.post('/v1/leads/find', { buy_box: 'Data center 50ac' }, { headers: ACME, query: { count_only: true } });
    expect(counted.body).toEqual({ count: 6, by_verdict: { PURSUE: 3, MONITOR: 1, HOLD: 2 } });
    const inBody = await app.post('/v1/leads/find', { buy_box: 'Data center 50ac', count_only: true }, { headers: ACME });
    expect(inBody.body).toEqual(counted.body);
    const listed = await app.post('/v1/leads/find', { buy_box: 'Data center 50ac' }, { headers: ACME, query: { limit: 3 } });
    expect(listed.body.rows.map((row: any) => row.parcel_key)).toEqual(['p1', 'p9', 'p3']);
  });

  it('resolves parcels by messy APN and address (D17)', async () => {
    const resolve = (body: Record<string, unknown>) => app.post('/v2/parcels/resolve', { market: 'hand-tx', ...body }, { headers: ACME });
    const byApn = await resolve({ apn: ' a 003 ' });
    expect(byApn.body).toMatchObject({ status: 'resolved', market: 'hand-tx', vintage_id: vintageId });
    expect(byApn.body.candidates[0]).toMatchObject({ parcel_key: 'p3', apn: 'A-003', typed: { acres: 60 } });
    expect((await resolve({ address: '800 WALNUT BLVD.' })).body.candidates[0].parcel_key).toBe('p8');
    const fuzzy = await resolve({ address: '100 N Main St' });
    expect(fuzzy.body.status).not.toBe('not_found');
    expect(fuzzy.body.candidates[0].parcel_key).toBe('p1');
    expect((await resolve({ apn: 'Z-999' })).body).toMatchObject({ status: 'not_found', candidates: [] });
    const neither = await resolve({});
    expect(neither.status).toBe(422);
  });

  it('a new vintage changes the query_hash and the old cursor stops working; a failed import changes nothing', async () => {
    const before = await query({ buy_box: 'Data center 50ac', limit: 2 });
    await expect(loadMarket(app.stack.database.db, 'hand-tx', [...PARCELS, { properties: { apn: 'A-010', acres: 'lots' } }])).rejects.toThrow();
    const unchanged = await query({ buy_box: 'Data center 50ac', limit: 2 });
    expect(unchanged.body.vintage_id).toBe(vintageId);
    expect(unchanged.body.query_hash).toBe(before.body.query_hash);

    const next = await loadMarket(app.stack.database.db, 'hand-tx', PARCELS.slice(0, 5));
    const after = await query({ buy_box: 'Data center 50ac', limit: 2 });
    expect(after.body.vintage_id).toBe(next.vintageId);
    expect(after.body.query_hash).not.toBe(before.body.query_hash);
    expect(after.body.denominator).toBe(5);
    const stale = await query({ buy_box: 'Data center 50ac', limit: 2, cursor: before.body.next_cursor });
    expect(stale.status).toBe(422);
  });

  it('takes a body\'s "__proto__" member as data over HTTP, lending the body no field (D1)', async () => {
    // Built by JSON.parse, as the server reads it: "__proto__" is then an own member of the body.
    const body = JSON.parse(`{"name":"proto box","spec":${JSON.stringify(SPEC)},"__proto__":{"description":"smuggled past validation"}}`);
    const created = await app.post('/v1/buyboxes', body, { headers: ACME });
    expect(created.status).toBe(201);
    expect(created.body.description ?? null).toBeNull();
    expect((await app.request('DELETE', '/v1/buyboxes/proto%20box', { headers: ACME })).status).toBe(204);
  });
});
