import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MODES, entitleTenant, loadMarket, startTestStack, type TestStack } from '@landscreen/testing';

// D41 graded preferences, D40 `fields` and numbers rounded per unit, over REST.

const ACME = { authorization: 'Bearer dev:ann@acme.test', 'x-tenant': 'acme' };
const point = (lon: number, lat: number) => ({ type: 'Point' as const, coordinates: [lon, lat] });

/** Distances to a substation (m) and zonings; every parcel passes the must rule. */
const PARCELS = [
  { parcel_key: 'g1', acres: 120.123456, nearest_substation_distance_m: 174.38540113374782, zoning: 'industrial', slope_degrees: 3.14159 },
  { parcel_key: 'g2', acres: 80, nearest_substation_distance_m: 1500, zoning: 'agricultural', slope_degrees: 1 },
  { parcel_key: 'g3', acres: 90, nearest_substation_distance_m: 2000, zoning: 'industrial', slope_degrees: 2 },
  { parcel_key: 'g4', acres: 70, nearest_substation_distance_m: 4750, zoning: 'industrial', slope_degrees: 2 },
  { parcel_key: 'g5', acres: 60, nearest_substation_distance_m: 7999.9, zoning: 'industrial', slope_degrees: 2 },
  { parcel_key: 'g6', acres: 55, nearest_substation_distance_m: 9000, zoning: 'industrial', slope_degrees: 2 },
  { parcel_key: 'g7', acres: 51, nearest_substation_distance_m: null, zoning: 'industrial', slope_degrees: 2 },
].map((properties, index) => ({ geometry: point(-97.7 + index * 0.01, 30.3), properties }));

const ungraded = {
  markets: ['grade-tx'],
  must: [{ field: 'acres', op: 'gte', value: 50 }],
  preferred: [
    { field: 'nearest_substation_distance_m', op: 'lte', value: 8000, weight: 3 },
    { field: 'zoning', op: 'eq', value: 'industrial', weight: 1 },
  ],
  verdict_cutoffs: { pursue: 70, monitor: 40 },
};

const GRADED = {
  ...ungraded,
  preferred: [
    { field: 'nearest_substation_distance_m', op: 'lte', value: 1500, weight: 3, grade: { zero_at: 8000 } },
    { field: 'zoning', op: 'eq', value: 'industrial', weight: 1 },
  ],
};

/** By hand: 3 × clamp((8000 − d) / 6500, 0, 1) + (industrial ? 1 : 0), out of 4, as a percentage to 4 decimals. */
function handScore(distance: number | null, industrial: boolean): number {
  const share = distance === null ? 0 : Math.min(1, Math.max(0, (8000 - distance) / 6500));
  return Number(((100 * (3 * share + (industrial ? 1 : 0))) / 4).toFixed(4));
}

describe.each(DATABASE_MODES)('graded preferences, chosen fields and rounded numbers on %s', (mode) => {
  let app: TestStack;
  const query = (body: Record<string, unknown>) => app.post('/v2/discovery/query', body, { headers: ACME });

  beforeAll(async () => {
    app = await startTestStack(mode);
    expect((await app.get('/v1/me', { headers: ACME })).status).toBe(200);
    const db = app.stack.database.db;
    await loadMarket(db, 'grade-tx', PARCELS, 'Graded Texas');
    await entitleTenant(db, 'acme', 'grade-tx');
    expect((await app.post('/v1/buyboxes', { name: 'graded', spec: GRADED }, { headers: ACME })).status).toBe(201);
    expect((await app.post('/v1/buyboxes', { name: 'plain', spec: ungraded }, { headers: ACME })).status).toBe(201);
  });
  afterAll(() => app?.close());

  it('an ungraded buy box keeps the spec_hash it had before grades existed', async () => {
    // The hand-made box of discovery.test.ts; its hash computed on main before D41.
    const hand = {
      markets: ['hand-tx'],
      must: [
        { field: 'acres', op: '>=', value: 50 },
        { field: 'within_floodplain_polygon', op: 'eq', value: false, unknown: 'review' },
      ],
      preferred: [
        { field: 'zoning', op: '=', value: 'industrial', weight: 1 },
        { field: 'nearest_substation_distance_m', op: 'lte', value: 3000, weight: 3, grade: null },
      ],
      verdict_cutoffs: { pursue: 70, monitor: 40 },
    };
    const saved = await app.post('/v1/buyboxes', { name: 'hand', spec: hand }, { headers: ACME });
    expect(saved.status).toBe(201);
    expect(saved.body.spec_hash).toBe('b92e5ee5065d7e429e4263a62dcce594b29cf9388b47ad4b332a8c30b5bf7a36');
    expect(saved.body.spec.preferred.every((rule: object) => !('grade' in rule))).toBe(true);
  });

  it('a graded box is saved with its grade, and the grade changes its hash', async () => {
    const boxes = (await app.get('/v1/buyboxes', { headers: ACME })).body;
    const graded = boxes.find((box: any) => box.name === 'graded');
    const plain = boxes.find((box: any) => box.name === 'plain');
    expect(graded.spec.preferred[0]).toEqual({ field: 'nearest_substation_distance_m', op: 'lte', value: 1500, weight: 3, grade: { zero_at: 8000 } });
    expect(graded.spec_hash).not.toBe(plain.spec_hash);
  });

  it('ranks by the graded share, separating parcels the all-or-nothing rule ties, as computed by hand', async () => {
    const plain = await query({ buy_box: 'plain' });
    expect(plain.status).toBe(200);
    const tied = plain.body.results.filter((row: any) => row.score === 100).map((row: any) => row.parcel_key);
    expect(tied).toEqual(['g1', 'g3', 'g4', 'g5']);

    const graded = await query({ buy_box: 'graded' });
    expect(graded.status).toBe(200);
    expect(graded.body.query_hash).not.toBe(plain.body.query_hash);
    expect(graded.body.applied_spec.preferred[0].grade).toEqual({ zero_at: 8000 });
    const expected = PARCELS.map(({ properties: p }) => [p.parcel_key, handScore(p.nearest_substation_distance_m, p.zoning === 'industrial')] as [string, number]).sort(
      (a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1),
    );
    expect(graded.body.results.map((row: any) => [row.parcel_key, row.score])).toEqual(expected);
    const gradedScore = (key: string) => graded.body.results.find((row: any) => row.parcel_key === key).score;
    expect(new Set(['g3', 'g4', 'g5'].map(gradedScore)).size).toBe(3);

    const g3 = graded.body.results.find((row: any) => row.parcel_key === 'g3');
    expect(g3.score).toBe(94.2308);
    expect(g3.score_breakdown.preferred).toEqual([
      { field: 'nearest_substation_distance_m', value: 2000, weight: 3, contribution: 2.7692 },
      { field: 'zoning', value: 'industrial', weight: 1, contribution: 1 },
    ]);
    const g7 = graded.body.results.find((row: any) => row.parcel_key === 'g7');
    expect(g7.unknowns).toEqual(['nearest_substation_distance_m']);
  });

  it('promotion re-evaluates the graded spec and keeps its fractional evidence', async () => {
    const ranked = await query({ buy_box: 'graded' });
    const promoted = await app.post('/v2/pipeline', { parcel_key: 'g4', buy_box: 'graded', query_hash: ranked.body.query_hash }, { headers: ACME });
    expect(promoted.status).toBe(202);
    const page = await app.get(`/v1/properties/${promoted.body.property_id}`, { headers: ACME });
    expect(page.status).toBe(200);
    expect(page.body.deep_screen).toMatchObject({ score: 62.5, verdict: 'MONITOR', query_hash: ranked.body.query_hash });
    expect(page.body.deep_screen.evaluation.score_breakdown.preferred[0]).toEqual({ field: 'nearest_substation_distance_m', value: 4750, weight: 3, contribution: 1.5 });
  });

  it('counts and lists leads with the graded scores', async () => {
    const found = await app.post('/v1/leads/find', { buy_box: 'graded' }, { headers: ACME });
    expect(found.status).toBe(200);
    expect(found.body.by_verdict).toEqual({ PURSUE: 3, MONITOR: 1, HOLD: 3 });
    expect(found.body.rows.find((row: any) => row.parcel_key === 'g5').score).toBe(handScore(7999.9, true));
    expect(found.body.rows[0]).not.toHaveProperty('facts');
  });

  it('refuses a grade where it cannot apply, on the rule\'s loc (D1)', async () => {
    const withRule = (rule: object) => ({ ...GRADED, preferred: [rule] });
    const onEq = await app.post('/v1/buyboxes', { name: 'bad', spec: withRule({ field: 'zoning', op: 'eq', value: 'x', weight: 1, grade: { zero_at: 3 } }) }, { headers: ACME });
    expect(onEq.status).toBe(422);
    expect(onEq.body.detail.map((issue: any) => [issue.loc.join('.'), issue.type])).toEqual([['body.spec.preferred.0.grade', 'value_error']]);
    const nearSide = await query({ buy_box: 'graded', draft: withRule({ field: 'acres', op: 'gte', value: 100, weight: 1, grade: { zero_at: 150 } }) });
    expect(nearSide.status).toBe(422);
    expect(nearSide.body.detail.map((issue: any) => [issue.loc.join('.'), issue.type])).toEqual([['body.draft.preferred.0.grade.zero_at', 'less_than']]);
    const shape = await app.post('/v1/buyboxes', { name: 'bad', spec: withRule({ ...GRADED.preferred[0], grade: { zero_at: 'far', extra: 1 } }) }, { headers: ACME });
    expect(shape.status).toBe(422);
    expect(shape.body.detail.map((issue: any) => issue.loc.join('.')).sort()).toEqual(['body.spec.preferred.0.grade.extra', 'body.spec.preferred.0.grade.zero_at']);
  });

  it('reads a grade from buy-box text', async () => {
    const parsed = await app.post('/v1/buyboxes/parse', { text: 'market: grade-tx\nprefer: within 1.5 km of a substation, falling to 0 at 8 km, weight 3' }, { headers: ACME });
    expect(parsed.status).toBe(200);
    expect(parsed.body.draft.preferred).toEqual([GRADED.preferred[0]]);
  });

  it('shows facts and evidence values rounded per unit, scores as D14 has them', async () => {
    const { body } = await query({ buy_box: 'graded' });
    const g1 = body.results.find((row: any) => row.parcel_key === 'g1');
    expect(g1.facts).toMatchObject({ acres: 120.1235, nearest_substation_distance_m: 174.4, slope_degrees: 3.1, zoning: 'industrial' });
    expect(g1.acres).toBe(120.1235);
    expect(g1.score_breakdown.preferred[0]).toEqual({ field: 'nearest_substation_distance_m', value: 174.4, weight: 3, contribution: 3 });
    // Evaluated on every digit, shown rounded: 174.3854… passes `< 174.39`, and shows as 174.4.
    const must = await query({ buy_box: 'graded', draft: { ...GRADED, must: [{ field: 'nearest_substation_distance_m', op: 'lt', value: 174.39 }] } });
    expect(must.body.results.map((row: any) => row.parcel_key)).toEqual(['g1']);
    expect(must.body.results[0].score_breakdown.must).toEqual([{ field: 'nearest_substation_distance_m', value: 174.4, status: 'pass' }]);
  });

  it('`fields` chooses the facts and provenance each result shows; without it the answer is whole', async () => {
    const whole = await query({ buy_box: 'graded', limit: 1 });
    expect(Object.keys(whole.body.results[0].facts)).toEqual(expect.arrayContaining(['acres', 'zoning', 'nearest_substation_distance_m', 'slope_degrees', 'owner_name']));
    const chosen = await query({ buy_box: 'graded', limit: 2, fields: ['nearest_substation_distance_m', 'acres', 'wetland_acres'] });
    expect(chosen.status).toBe(200);
    for (const row of chosen.body.results) {
      expect(Object.keys(row.facts)).toEqual(['nearest_substation_distance_m', 'acres', 'wetland_acres']);
      expect(row.facts.wetland_acres).toBeNull();
      expect(Object.keys(row.provenance).sort()).toEqual(['acres', 'nearest_substation_distance_m']);
      expect(row.score_breakdown.preferred).toHaveLength(2); // evidence is not a fact: always whole
    }
    // The same ranking and cursor as without fields.
    expect(chosen.body.query_hash).toBe(whole.body.query_hash);
    const next = await query({ buy_box: 'graded', limit: 2, cursor: chosen.body.next_cursor, fields: ['zoning'] });
    expect(next.status).toBe(200);
    expect(next.body.results[0].facts).toEqual({ zoning: expect.any(String) });
  });

  it('refuses unknown fields with a did-you-mean on their loc', async () => {
    const response = await query({ buy_box: 'graded', fields: ['acres', 'nearest_substation_distanse_m', 'zzzz'] });
    expect(response.status).toBe(422);
    expect(response.body.detail.map((issue: any) => [issue.loc.join('.'), issue.ctx?.did_you_mean ?? null])).toEqual([
      ['body.fields.1', 'nearest_substation_distance_m'],
      ['body.fields.2', null],
    ]);
    const empty = await query({ buy_box: 'graded', fields: [] });
    expect(empty.status).toBe(422);
    expect(empty.body.detail[0].loc).toEqual(['body', 'fields']);
    const leads = await app.post('/v1/leads/find', { buy_box: 'graded', fields: ['acers'] }, { headers: ACME });
    expect(leads.status).toBe(422);
    expect(leads.body.detail[0]).toMatchObject({ loc: ['body', 'fields', 0], ctx: { did_you_mean: 'acres' } });
  });

  it('lead rows show the chosen facts with their provenance', async () => {
    const found = await app.post('/v1/leads/find', { buy_box: 'graded', fields: ['nearest_substation_distance_m'] }, { headers: ACME });
    expect(found.status).toBe(200);
    const g1 = found.body.rows.find((row: any) => row.parcel_key === 'g1');
    expect(g1.facts).toEqual({ nearest_substation_distance_m: 174.4 });
    expect(g1.provenance.nearest_substation_distance_m).toMatchObject({ source: 'import' });
  });
});
