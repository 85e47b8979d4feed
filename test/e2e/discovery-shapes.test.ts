import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entitleTenant, loadMarket, startTestStack, type TestStack } from '@landscreen/testing';

// Discovery's answers are typed messages the gateway writes as REST JSON. These checks
// pin what the other suites leave open: every key of each answer, in order, and the form of
// values (times, nulls, bbox, the canonical spec) that the answers had before the typed messages.

const ACME = { authorization: 'Bearer dev:ann@acme.test', 'x-tenant': 'acme' };
const square = (lon: number, lat: number) => ({
  type: 'Polygon' as const,
  coordinates: [[[lon, lat], [lon + 0.001, lat], [lon + 0.001, lat + 0.001], [lon, lat + 0.001], [lon, lat]]],
});
const PARCELS = [
  { parcel_key: 's1', apn: 'S-001', address: '1 Shape Street', acres: 120, zoning: 'industrial', listing_status: 'listed' },
  { parcel_key: 's2', apn: 'S-002', address: '2 Shape Street', acres: 80, zoning: 'agricultural' },
  { parcel_key: 's3', apn: null, address: null, acres: 10, zoning: null },
].map((properties, index) => ({ geometry: square(-97.7 + index * 0.01, 30.3), properties }));
const SPEC = {
  markets: ['shape-tx'],
  must: [{ field: 'acres', op: '>=', value: 50 }],
  preferred: [{ field: 'zoning', op: 'in', value: ['industrial', 'commercial'], weight: 2 }],
  verdict_cutoffs: { pursue: 70, monitor: 40 },
};
const RECORD_KEYS = ['id', 'name', 'description', 'spec', 'spec_hash', 'created_at', 'updated_at'];
const SPEC_KEYS = ['markets', 'must', 'preferred', 'verdict_cutoffs'];
const RESULT_KEYS = ['parcel_key', 'apn', 'address', 'lat', 'lon', 'acres', 'developable_acres', 'geometry', 'bbox', 'facts', 'provenance', 'score', 'verdict', 'review_required', 'unknowns', 'score_breakdown'];
const CANDIDATE_KEYS = ['market', 'vintage_id', 'parcel_key', 'apn', 'address', 'lat', 'lon', 'geometry', 'typed', 'free_facts', 'derived', 'provenance'];
const JS_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('the JSON of discovery answers, key by key (postgres)', () => {
  let app: TestStack;
  let vintageId: string;

  beforeAll(async () => {
    app = await startTestStack('postgres');
    expect((await app.get('/v1/me', { headers: ACME })).status).toBe(200);
    vintageId = (await loadMarket(app.stack.database.db, 'shape-tx', PARCELS)).vintageId;
    await entitleTenant(app.stack.database.db, 'acme', 'shape-tx');
  });
  afterAll(() => app?.close());

  it('answers buy-box records with the canonical spec and JavaScript times', async () => {
    const created = await app.post('/v1/buyboxes', { name: 'Shapes', spec: SPEC }, { headers: ACME });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body)).toEqual(RECORD_KEYS);
    expect(created.body).toMatchObject({ name: 'Shapes', description: null, spec_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(created.body.created_at).toMatch(JS_TIME);
    expect(created.body.updated_at).toBe(created.body.created_at);
    expect(Object.keys(created.body.spec)).toEqual(SPEC_KEYS);
    expect(created.body.spec).toEqual({
      markets: ['shape-tx'],
      must: [{ field: 'acres', op: 'gte', value: 50, unknown: 'exclude' }],
      preferred: [{ field: 'zoning', op: 'in', value: ['commercial', 'industrial'], weight: 2 }],
      verdict_cutoffs: { pursue: 70, monitor: 40 },
    });
    expect(Object.keys(created.body.spec.must[0])).toEqual(['field', 'op', 'value', 'unknown']);

    const replaced = await app.request('PUT', '/v1/buyboxes/Shapes', { body: { spec: SPEC, description: 'Described' }, headers: ACME });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id: created.body.id, description: 'Described', created_at: created.body.created_at });
    expect(replaced.body.updated_at).toMatch(JS_TIME);
    const listed = await app.get('/v1/buyboxes', { headers: ACME });
    expect(listed.body).toEqual([replaced.body]);
    expect(Object.keys(listed.body[0])).toEqual(RECORD_KEYS);
  });

  it('answers a parsed draft with rules as written: no unknown policy where the text gives none', async () => {
    const parsed = await app.post('/v1/buyboxes/parse', { text: 'market: shape-tx\nmust: acres >= 50\nprefer: zoning = industrial weight 2' }, { headers: ACME });
    expect(parsed.status).toBe(200);
    expect(Object.keys(parsed.body)).toEqual(['draft', 'warnings']);
    expect(Object.keys(parsed.body.draft)).toEqual(SPEC_KEYS);
    expect(parsed.body.draft.must).toEqual([{ field: 'acres', op: 'gte', value: 50 }]);
    expect(parsed.body.draft.preferred).toEqual([{ field: 'zoning', op: 'eq', value: 'industrial', weight: 2 }]);
    expect(parsed.body.warnings.length).toBeGreaterThan(0); // the cutoffs defaulted
  });

  it('answers a query page with every key, nulls as null and a cursor only while more follow', async () => {
    const first = await app.post('/v2/discovery/query', { buy_box: 'Shapes', limit: 1 }, { headers: ACME });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(['market', 'market_id', 'vintage_id', 'query_hash', 'applied_spec', 'denominator', 'preference_weight_total', 'eligible_total', 'results', 'next_cursor']);
    expect(first.body).toMatchObject({ market: 'shape-tx', vintage_id: vintageId, denominator: 3, preference_weight_total: 2, eligible_total: 2, next_cursor: expect.any(String) });
    expect(Object.keys(first.body.applied_spec)).toEqual(SPEC_KEYS);
    const [best] = first.body.results;
    expect(Object.keys(best)).toEqual(RESULT_KEYS);
    expect(best).toMatchObject({ parcel_key: 's1', apn: 'S-001', acres: 120, developable_acres: null, geometry: PARCELS[0]!.geometry, score: 100, verdict: 'PURSUE', review_required: false, unknowns: [] });
    expect(best.bbox === null || (Array.isArray(best.bbox) && best.bbox.length === 4)).toBe(true);
    expect(best.facts).toMatchObject({ acres: 120, zoning: 'industrial', listing_status: 'listed' });
    expect(best.score_breakdown).toEqual({
      must: [{ field: 'acres', value: 120, status: 'pass' }],
      preferred: [{ field: 'zoning', value: 'industrial', weight: 2, contribution: 2 }],
    });
    const second = await app.post('/v2/discovery/query', { buy_box: 'Shapes', limit: 1, cursor: first.body.next_cursor }, { headers: ACME });
    expect(second.body.results.map((result: { parcel_key: string }) => result.parcel_key)).toEqual(['s2']);
    expect(second.body.next_cursor).toBeNull();
  });

  it('answers resolve with ParcelCandidates split as imported, and not_found with none', async () => {
    const resolved = await app.post('/v2/parcels/resolve', { market: 'shape-tx', apn: 's-001' }, { headers: ACME });
    expect(resolved.status).toBe(200);
    expect(Object.keys(resolved.body)).toEqual(['status', 'market', 'market_id', 'vintage_id', 'candidates']);
    const [candidate] = resolved.body.candidates;
    expect(Object.keys(candidate)).toEqual(CANDIDATE_KEYS);
    expect(candidate).toMatchObject({ market: 'shape-tx', vintage_id: vintageId, parcel_key: 's1', apn: 'S-001', geometry: PARCELS[0]!.geometry });
    expect(candidate.free_facts).toEqual({ listing_status: 'listed' });
    expect(typeof candidate.derived).toBe('object');
    expect(candidate.typed).toMatchObject({ acres: 120, zoning: 'industrial' });
    const missing = await app.post('/v2/parcels/resolve', { market: 'shape-tx', apn: 'nope' }, { headers: ACME });
    expect(missing.body).toMatchObject({ status: 'not_found', candidates: [] });
  });

  it('answers found leads with the verdict split, and rows unless count_only', async () => {
    const counted = await app.post('/v1/leads/find', { buy_box: 'Shapes', count_only: true }, { headers: ACME });
    expect(counted.body).toEqual({ count: 2, by_verdict: { PURSUE: 1, MONITOR: 0, HOLD: 1 } });
    expect(Object.keys(counted.body.by_verdict)).toEqual(['PURSUE', 'MONITOR', 'HOLD']);
    const listed = await app.post('/v1/leads/find', { buy_box: 'Shapes' }, { headers: ACME, query: { limit: 5 } });
    expect(Object.keys(listed.body)).toEqual(['count', 'by_verdict', 'rows']);
    expect(Object.keys(listed.body.rows[0])).toEqual(['parcel_key', 'apn', 'address', 'lat', 'lon', 'acres', 'score', 'verdict', 'review_required', 'unknowns']);
    expect(listed.body.rows.map((row: { parcel_key: string; verdict: string }) => [row.parcel_key, row.verdict])).toEqual([['s1', 'PURSUE'], ['s2', 'HOLD']]);
  });
});
