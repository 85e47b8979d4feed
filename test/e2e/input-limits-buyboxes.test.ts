import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MODES, entitleTenant, loadMarket, startTestStack, type TestStack } from '@landscreen/testing';

/**
 * Buy boxes against hostile input over HTTP, in both database modes: weights and cutoffs are
 * bounded so that every score is finite (a weight of 1e307 made scores null, every parcel HOLD,
 * the next cursor "invalid" and promotion 500), and names are one name however they are typed.
 */

const ANN = { authorization: 'Bearer dev:ann@acme.test', 'x-tenant': 'acme' };
const BOUND = 1_000_000;
const point = (lon: number, lat: number) => ({ type: 'Point' as const, coordinates: [lon, lat] });
const PARCELS = Array.from({ length: 7 }, (_, index) => ({
  geometry: point(-97.7 + index * 0.01, 30.3),
  properties: { parcel_key: `q${index}`, apn: `Q-${index}`, acres: 10 + index * 10, nearest_substation_distance_m: 500 * index, zoning: index % 2 ? 'industrial' : 'agricultural' },
}));

const draft = (weight: number, cutoffs = { pursue: 70, monitor: 40 }) => ({
  markets: ['bound-tx'],
  preferred: [
    { field: 'acres', op: 'gte', value: 30, weight },
    { field: 'zoning', op: 'eq', value: 'industrial', weight: 1 },
  ],
  verdict_cutoffs: cutoffs,
});

const locTypes = (body: any) => body.detail.map(({ loc, type }: any) => `${loc.join('.')}:${type}`);

describe.each(DATABASE_MODES)('buy-box input limits on %s', (mode) => {
  let app: TestStack;
  const post = (path: string, body: unknown) => app.post(path, body, { headers: ANN });
  const put = (name: string, body: unknown) => app.request('PUT', `/v1/buyboxes/${encodeURIComponent(name)}`, { body, headers: ANN });
  const del = (name: string) => app.request('DELETE', `/v1/buyboxes/${encodeURIComponent(name)}`, { headers: ANN });

  beforeAll(async () => {
    app = await startTestStack(mode);
    expect((await app.get('/v1/me', { headers: ANN })).status).toBe(200);
    await loadMarket(app.stack.database.db, 'bound-tx', PARCELS);
    await entitleTenant(app.stack.database.db, 'acme', 'bound-tx');
    expect((await post('/v1/buyboxes', { name: 'saved', spec: draft(1) })).status).toBe(201);
  });
  afterAll(() => app?.close());

  describe('weights and cutoffs', () => {
    it('refuses a weight of 1e307 with 422 at its loc, wherever a draft comes in', async () => {
      const answers = await Promise.all([
        post('/v1/buyboxes', { name: 'huge', spec: draft(1e307) }),
        put('saved', { spec: draft(-1e307) }),
        post('/v2/discovery/query', { buy_box: 'saved', draft: draft(1e307) }),
        post('/v1/leads/find', { draft: draft(1e307) }),
        post('/v2/pipeline', { parcel_key: 'q1', buy_box: 'saved', query_hash: 'a'.repeat(64), draft: draft(1e307) }),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([422, 422, 422, 422, 422]);
      expect(answers.map((answer) => locTypes(answer.body))).toEqual([
        ['body.spec.preferred.0.weight:less_than_equal'],
        ['body.spec.preferred.0.weight:greater_than_equal'],
        ['body.draft.preferred.0.weight:less_than_equal'],
        ['body.draft.preferred.0.weight:less_than_equal'],
        ['body.draft.preferred.0.weight:less_than_equal'],
      ]);
      expect(answers[0]!.body.detail[0]).toMatchObject({ input: 1e307, ctx: { le: BOUND } });
    });

    it('refuses cutoffs beyond the bound, and weights given as numeric text', async () => {
      const cutoffs = await post('/v1/buyboxes', { name: 'huge', spec: draft(1, { pursue: 1e307, monitor: -2e6 }) });
      expect(locTypes(cutoffs.body)).toEqual(['body.spec.verdict_cutoffs.pursue:less_than_equal', 'body.spec.verdict_cutoffs.monitor:greater_than_equal']);
      const text = await post('/v1/buyboxes', { name: 'huge', spec: { ...draft(1), preferred: [{ field: 'acres', op: 'gte', value: 1, weight: '1e400' }] } });
      expect(locTypes(text.body)).toEqual(['body.spec.preferred.0.weight:less_than_equal']);
      expect((await app.get('/v1/buyboxes', { headers: ANN })).body.map((box: any) => box.name)).toEqual(['saved']);
    });

    it('parse drops a rule whose weight is beyond the bound, with a warning', async () => {
      const response = await post('/v1/buyboxes/parse', { text: `market: bound-tx\nprefer: acres >= 30 weight 1${'0'.repeat(307)}\nprefer: acres >= 10 weight 1000000` });
      expect(response.status).toBe(200);
      expect(response.body.draft.preferred).toEqual([{ field: 'acres', op: 'gte', value: 10, weight: BOUND }]);
      expect(response.body.warnings).toContain('line 2: the weight is beyond ±1,000,000; rule ignored');
    });

    it('the largest weights give finite scores, a cursor that pages and a promotion that works', async () => {
      const spec = {
        markets: ['bound-tx'],
        preferred: [
          ...Array.from({ length: 48 }, () => ({ field: 'acres', op: 'gte', value: 30, weight: BOUND })),
          { field: 'zoning', op: 'eq', value: 'industrial', weight: -BOUND },
          { field: 'nearest_substation_distance_m', op: 'lte', value: 1000, weight: BOUND },
        ],
        verdict_cutoffs: { pursue: BOUND, monitor: -BOUND },
      };
      expect((await post('/v1/buyboxes', { name: 'heaviest', spec })).status).toBe(201);
      const seen: string[] = [];
      let cursor: string | null = null;
      let first: any;
      do {
        const page: any = await post('/v2/discovery/query', { buy_box: 'heaviest', limit: 2, cursor });
        expect(page.status, JSON.stringify(page.body)).toBe(200);
        first ??= page.body;
        expect(page.body.preference_weight_total).toBe(50 * BOUND);
        for (const row of page.body.results) {
          expect(Number.isFinite(row.score)).toBe(true);
          expect(row.verdict).toBe('MONITOR');
          seen.push(row.parcel_key);
        }
        cursor = page.body.next_cursor;
      } while (cursor !== null);
      expect(seen.sort()).toEqual(PARCELS.map((parcel) => parcel.properties.parcel_key).sort());
      // q2: 48 acres rules pass (30 acres), agricultural, 1,000 m: (48 + 1) / 50.
      expect(first.results[0]).toMatchObject({ parcel_key: 'q2', score: 98 });
      const promoted = await post('/v2/pipeline', { parcel_key: 'q2', buy_box: 'heaviest', query_hash: first.query_hash });
      expect(promoted.status, JSON.stringify(promoted.body)).toBe(202);
      const direct = await post('/v2/pipeline/direct', { parcel_key: 'q0', buy_box: 'heaviest' });
      expect(direct.status, JSON.stringify(direct.body)).toBe(202);
    });

    it('a box saved before the bound (weights of 1e308) still gets finite scores, a cursor and a promotion', async () => {
      expect((await post('/v1/buyboxes', { name: 'legacy', spec: draft(1) })).status).toBe(201);
      // What an older build let anyone save, written the way it stored it.
      await sql`update discovery.buy_boxes set spec = jsonb_set(jsonb_set(spec, '{preferred,0,weight}', '1e308'), '{preferred,1,weight}', '1e308')
        where name = 'legacy'`.execute(app.stack.database.db);
      const pages: any[] = [];
      let cursor: string | null = null;
      do {
        const page: any = await post('/v2/discovery/query', { buy_box: 'legacy', limit: 3, cursor });
        expect(page.status, JSON.stringify(page.body)).toBe(200);
        pages.push(page.body);
        cursor = page.body.next_cursor;
      } while (cursor !== null);
      const rows = pages.flatMap((page) => page.results);
      expect(rows).toHaveLength(PARCELS.length);
      expect(pages[0].preference_weight_total).toBe(Number.MAX_VALUE);
      for (const row of rows) expect(Number.isFinite(row.score) && Math.abs(row.score) <= 100, JSON.stringify(row.score)).toBe(true);
      // Σ|weight| overflows: held at the largest double; q3 and q5 pass both rules (100), q1 one (55.6268).
      expect(rows.slice(0, 3).map((row) => [row.parcel_key, row.verdict])).toEqual([['q3', 'PURSUE'], ['q5', 'PURSUE'], ['q1', 'MONITOR']]);
      const promoted = await post('/v2/pipeline', { parcel_key: 'q3', buy_box: 'legacy', query_hash: pages[0].query_hash });
      expect(promoted.status, JSON.stringify(promoted.body)).toBe(202);
    });
  });

  describe('names', () => {
    const NFC = 'Caf\u00e9';
    const NFD = 'Cafe\u0301';

    it('Café typed in NFC and in NFD is one box, found by either', async () => {
      expect((await post('/v1/buyboxes', { name: NFC, spec: draft(1) })).status).toBe(201);
      const twin = await post('/v1/buyboxes', { name: NFD, spec: draft(2) });
      expect(twin.status).toBe(409);
      expect(twin.body.code).toBe('buy_box_exists');
      const replaced = await put(NFD, { spec: draft(3) });
      expect(replaced.status).toBe(200);
      expect(replaced.body.name).toBe(NFC);
      const ranked = await post('/v2/discovery/query', { buy_box: NFD, limit: 1 });
      expect(ranked.status).toBe(200);
      expect((await post('/v1/leads/find', { buy_box: ` ${NFD} ` })).status).toBe(200);
      const direct = await post('/v2/pipeline/direct', { parcel_key: 'q3', buy_box: NFD });
      expect(direct.status, JSON.stringify(direct.body)).toBe(202);
      const promoted = await post('/v2/pipeline', { parcel_key: ranked.body.results[0].parcel_key, buy_box: NFD, query_hash: ranked.body.query_hash });
      expect(promoted.status, JSON.stringify(promoted.body)).toBe(202);
      const names = (await app.get('/v1/buyboxes', { headers: ANN })).body.map((box: any) => box.name);
      expect(names.filter((name: string) => name.normalize('NFC') === NFC)).toEqual([NFC]);
      expect((await del(NFD)).status).toBe(204);
    });

    it('names are trimmed: " dc " is the box "dc"', async () => {
      const created = await post('/v1/buyboxes', { name: '  dc ', spec: draft(1) });
      expect(created.status).toBe(201);
      expect(created.body.name).toBe('dc');
      expect((await post('/v1/buyboxes', { name: 'dc', spec: draft(1) })).status).toBe(409);
      expect(locTypes((await post('/v1/buyboxes', { name: '   ', spec: draft(1) })).body)).toEqual(['body.name:string_too_short']);
    });

    it('refuses invisible and control characters with 422, wherever a name comes in', async () => {
      const answers = await Promise.all([
        post('/v1/buyboxes', { name: 'dc\u200b', spec: draft(1) }),
        post('/v1/buyboxes', { name: '\u202edc', spec: draft(1) }),
        put('dc\u200b', { spec: draft(1) }),
        del('dc\u200b'),
        post('/v2/discovery/query', { buy_box: 'dc\u200b' }),
        post('/v1/leads/find', { buy_box: 'dc\u200b' }),
        post('/v2/pipeline', { parcel_key: 'q1', buy_box: 'dc\u200b', query_hash: 'a'.repeat(64) }),
        post('/v2/pipeline/direct', { parcel_key: 'q1', buy_box: 'dc\t' }),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([422, 422, 422, 422, 422, 422, 422, 422]);
      expect(answers.map((answer) => locTypes(answer.body)[0])).toEqual([
        'body.name:value_error',
        'body.name:value_error',
        'path.name:value_error',
        'path.name:value_error',
        'body.buy_box:value_error',
        'body.buy_box:value_error',
        'body.buy_box:value_error',
        'body.buy_box:value_error',
      ]);
      expect(answers[0]!.body.detail[0].msg).toBe('Value error, a name cannot contain control or invisible characters (found U+200B)');
      expect((await app.get('/v1/buyboxes', { headers: ANN })).body.map((box: any) => box.name)).not.toContain('dc\u200b');
    });
  });
});
