// Billed point data over HTTP (D34, D35): exact credits on every plan, the 402 body,
// Idempotency-Key replays, rpm windows on an injected clock, dry runs, lookup and usage — on the
// embedded default's PGlite and on PostgreSQL.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELDS } from '@landscreen/field-catalog';
import { importLayer, setPlan, catalogDb } from '@landscreen/catalog-service';
import { findTenant, authDb } from '@landscreen/auth-service';
import { ManualClock } from '@landscreen/rpc';
import { DATABASE_MODES, entitleTenant, loadMarket, startTestStack, type TestStack } from '@landscreen/testing';

/** Mid-month and mid-minute, so windows and months have room on both sides. */
const START = new Date('2026-11-16T10:00:15Z');
const headersOf = (tenant: string) => ({ authorization: `Bearer dev:ann@${tenant}.test`, 'x-tenant': tenant });

/** The sign-up grant (docs/decisions.md): one location of every catalog field on free = 192 ordinary fields + the parcel group's 300. */
const SIGNUP_GRANT = 492;
const ORDINARY = FIELDS.filter((field) => field.billing.metered_group === null).map((field) => field.name);
const PARCEL = FIELDS.filter((field) => field.billing.metered_group === 'parcel_record').map((field) => field.name);

/** Square parcels 0.001° a side around points on a line; addresses for geocoding. */
const square = (lon: number, lat: number, half = 0.0005) => ({
  type: 'Polygon' as const,
  coordinates: [[[lon - half, lat - half], [lon + half, lat - half], [lon + half, lat + half], [lon - half, lat + half], [lon - half, lat - half]]],
});
const PARCELS = [
  { parcel_key: 'p1', apn: 'B-001', address: '100 North Main Street', zoning: 'industrial', owner_name: 'Alpha LLC', acres: 12 },
  { parcel_key: 'p2', apn: 'B-002', address: '200 Oak Avenue', zoning: 'agricultural', owner_name: 'Beta Farms', acres: 30 },
  { parcel_key: 'p3', apn: 'B-003', address: '300 Elm Road', zoning: 'industrial', owner_name: 'Gamma Inc', acres: 8 },
].map((properties, index) => ({ geometry: square(-97.5 + index * 0.01, 31), properties: { ...properties, lat: 31, lon: -97.5 + index * 0.01 } }));

describe.each(DATABASE_MODES)('billed point data on %s', (mode) => {
  let app: TestStack;
  const clock = new ManualClock(START);
  let tenantSeq = 0;

  /** A new tenant (its first request creates it) on `plan`. */
  async function tenantOn(plan: string) {
    const slug = `${mode}-${plan}-${++tenantSeq}`;
    expect((await app.get('/v1/me', { headers: headersOf(slug) })).status).toBe(200);
    const tenant = await findTenant(authDb(app.stack.database.db), slug);
    await setPlan(catalogDb(app.stack.database.db), tenant!.id, plan, clock.now());
    return headersOf(slug);
  }
  const fetchBatch = (headers: Record<string, string>, body: unknown, extra: Record<string, string> = {}) =>
    app.post('/v1/fetch/batch', body, { headers: { ...headers, ...extra } });
  const usage = async (headers: Record<string, string>) => (await app.get('/v1/usage', { headers })).body;
  const locations = (n: number) => Array.from({ length: n }, (_, i) => ({ lat: 30 + i * 0.01, lon: -97, id: `loc-${i}` }));

  beforeAll(async () => {
    app = await startTestStack(mode, { clock });
    const db = app.stack.database.db;
    await loadMarket(db, 'bill-tx', PARCELS, 'Billing test market');
  });
  afterAll(() => app?.close());

  describe('credits follow billing rules 1-3 on every plan', () => {
    const PLANS = [
      // plan, credits_included, group price, rpm
      ['free', 5000, 300, 20],
      ['build', 25000, 300, 60],
      ['growth', 120000, 300, 300],
      ['scale', 750000, 150, 600],
      ['market', 10000000, 150, 1000],
    ] as const;

    it.each(PLANS)('on %s: per field, the parcel group once per location, times the locations', async (plan, included, groupPrice, rpm) => {
      const headers = await tenantOn(plan);
      const allowance = included + SIGNUP_GRANT;

      // Rule 1: 3 ordinary fields (one named twice counts once) x 4 locations.
      const plain = await fetchBatch(headers, { locations: locations(4), fields: ['elevation', 'slope_degrees', 'elevation', 'coast_distance_m'] });
      expect(plain.status).toBe(200);
      expect(plain.body.credits).toEqual({ charged: 12, per_location: 3, balance: allowance - 12 });
      expect(plain.headers.get('x-credits-charged')).toBe('12');
      expect(plain.headers.get('x-credits-remaining')).toBe(String(allowance - 12));
      expect(plain.headers.get('x-ratelimit-limit')).toBe(String(rpm));
      expect(plain.headers.get('x-ratelimit-remaining')).toBe(String(rpm - 1)); // the minute's first billed request

      // Rules 1-3: 2 ordinary fields + 3 parcel-group fields x 5 locations = 5 x (2 + group price).
      const withGroup = await fetchBatch(headers, { locations: locations(5), fields: ['elevation', 'parcel_id', 'parcel_owner', 'tract_geoid', 'parcel_zoning'] });
      expect(withGroup.status).toBe(200);
      expect(withGroup.body.credits).toEqual({ charged: 5 * (2 + groupPrice), per_location: 2 + groupPrice, balance: allowance - 12 - 5 * (2 + groupPrice) });

      // Only parcel-group fields: the group price alone, once per location.
      const dry = await fetchBatch(headers, { locations: locations(7), fields: PARCEL, dry_run: true });
      expect(dry.status).toBe(200);
      expect(dry.body).toEqual({ results: [], credits: { charged: 0, per_location: groupPrice, balance: allowance - 12 - 5 * (2 + groupPrice) } });
      expect(dry.headers.get('x-credits-charged')).toBe('0');

      const spent = await usage(headers);
      expect(spent).toEqual({
        plan,
        month: '2026-11',
        included: allowance,
        charged: 12 + 5 * (2 + groupPrice),
        remaining: allowance - 12 - 5 * (2 + groupPrice),
        rpm,
        by_operation: { fetch: 12 + 5 * (2 + groupPrice) },
        signup_grant: SIGNUP_GRANT,
      });
    });

    it('bills a preset as its fields, and a preset plus fields as their union', async () => {
      const headers = await tenantOn('growth');
      const terrain = FIELDS.filter((field) => field.presets.includes('terrain'));
      expect(terrain.every((field) => field.billing.metered_group === null)).toBe(true);
      const preset = await fetchBatch(headers, { locations: locations(2), preset: 'terrain', dry_run: true });
      expect(preset.body.credits.per_location).toBe(terrain.length);
      // elevation is in the preset; parcel_id adds the group.
      const union = await fetchBatch(headers, { locations: locations(2), preset: 'terrain', fields: ['elevation', 'parcel_id'] });
      expect(union.status).toBe(200);
      expect(union.body.credits).toMatchObject({ charged: 2 * (terrain.length + 300), per_location: terrain.length + 300 });
      expect(Object.keys(union.body.results[0].values)).toEqual(['elevation', 'parcel_id', ...terrain.map((field) => field.name).filter((name) => name !== 'elevation')]);
    });
  });

  it('starts each UTC month afresh: the plan\'s credits, without the sign-up grant after its month', async () => {
    const headers = await tenantOn('build');
    expect((await fetchBatch(headers, { locations: locations(10), fields: ['elevation'] })).status).toBe(200);
    expect(await usage(headers)).toMatchObject({ month: '2026-11', included: 25000 + SIGNUP_GRANT, charged: 10 });
    clock.set(new Date('2026-11-30T23:59:59Z'));
    try {
      expect(await usage(headers)).toMatchObject({ month: '2026-11', charged: 10 });
      clock.set(new Date('2026-12-01T00:00:00Z'));
      expect(await usage(headers)).toEqual({ plan: 'build', month: '2026-12', included: 25000, charged: 0, remaining: 25000, rpm: 60, by_operation: {}, signup_grant: 0 });
      const december = await fetchBatch(headers, { locations: locations(1), fields: ['elevation'] });
      expect(december.headers.get('x-credits-remaining')).toBe('24999');
    } finally {
      clock.set(START);
    }
  });

  it('answers values in the order of the locations, each with its id, after charging', async () => {
    const headers = await tenantOn('build');
    const body = { locations: [{ lat: 31, lon: -97.5, id: 'inside-p1' }, { lat: 45, lon: -120 }, { lat: 31, lon: -97.48, id: 'inside-p3' }], fields: ['parcel_id', 'parcel_match_type', 'elevation'] };
    // Not entitled to the market yet: the parcel group has nothing to search.
    const before = await fetchBatch(headers, body);
    expect(before.status).toBe(200);
    expect(before.body.results[0]).toEqual({
      id: 'inside-p1', lat: 31, lon: -97.5,
      values: { parcel_id: null, parcel_match_type: null, elevation: null },
      null_reasons: { parcel_id: 'no_coverage', parcel_match_type: 'no_coverage', elevation: 'no_coverage' },
    });
    const tenant = headers['x-tenant'];
    await entitleTenant(app.stack.database.db, tenant, 'bill-tx');
    const after = await fetchBatch(headers, body);
    expect(after.status).toBe(200);
    expect(after.body.results.map((result: { id: string | null }) => result.id)).toEqual(['inside-p1', null, 'inside-p3']);
    expect(after.body.results[0].values).toMatchObject({ parcel_id: 'p1', parcel_match_type: 'exact_intersect' });
    expect(after.body.results[1].values).toMatchObject({ parcel_id: null });
    expect(after.body.results[1].null_reasons).toMatchObject({ parcel_id: 'none_within_radius' });
    expect(after.body.results[2].values).toMatchObject({ parcel_id: 'p3', parcel_match_type: 'exact_intersect' });
    expect(after.body.credits).toMatchObject({ charged: 3 * 301, per_location: 301 });
  });

  it('answers the same values with and without parcel-group fields (the two evaluation paths agree)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-billing-layer-'));
    try {
      const file = path.join(dir, 'substations.geojson');
      writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features: [
        { type: 'Feature', geometry: { type: 'Point', coordinates: [-97.5, 31.01] }, properties: { name: 'Alpha', max_voltage_kv: 345, status: 'IN SERVICE' } },
      ] }));
      await importLayer(catalogDb(app.stack.database.db), { source: 'hifld_substations', file });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const headers = await tenantOn('market');
    const points = [{ lat: 31, lon: -97.5, id: 'a' }, { lat: 31.2, lon: -97.3 }];
    const fields = ['nearest_substation_distance_m', 'nearest_substation_max_voltage_kv', 'nearest_substation_status', 'elevation'];
    const plain = await fetchBatch(headers, { locations: points, fields });
    const withParcel = await fetchBatch(headers, { locations: points, fields: [...fields, 'parcel_id'] });
    expect(plain.status).toBe(200);
    expect(plain.body.results[0].values.nearest_substation_max_voltage_kv).toBe(345);
    expect(plain.body.results[0].values.nearest_substation_distance_m).toBeGreaterThan(1100);
    expect(plain.body.results[0].values.nearest_substation_distance_m).toBeLessThan(1120);
    expect(plain.body.results[0].null_reasons).toEqual({ elevation: 'no_coverage' });
    withParcel.body.results.forEach((result: { values: Record<string, unknown>; null_reasons: Record<string, string> }, n: number) => {
      const { parcel_id: _value, ...values } = result.values;
      const { parcel_id: _reason, ...reasons } = result.null_reasons;
      expect(values).toEqual(plain.body.results[n].values);
      expect(reasons).toEqual(plain.body.results[n].null_reasons);
    });
  });

  it('refuses unknown names at their loc with a did-you-mean, and charges nothing', async () => {
    const headers = await tenantOn('free');
    const answer = await fetchBatch(headers, { locations: locations(1), fields: ['elevation', 'elevaton'], preset: 'terain' });
    expect(answer.status).toBe(422);
    expect(answer.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'fields', 1], input: 'elevaton', ctx: expect.objectContaining({ did_you_mean: 'elevation' }) }),
      expect.objectContaining({ loc: ['body', 'preset'], input: 'terain', ctx: expect.objectContaining({ did_you_mean: 'terrain' }) }),
    ]);
    const neither = await fetchBatch(headers, { locations: locations(1) });
    expect(neither.status).toBe(422);
    const tooMany = await fetchBatch(headers, { locations: locations(1001), fields: ['elevation'] });
    expect(tooMany.status).toBe(422);
    expect((await usage(headers)).charged).toBe(0);
  });

  it('answers 402 insufficient_credits with required and remaining, charging nothing', async () => {
    const headers = await tenantOn('free');
    // 5,492 credits: 1,000 locations x 5 fields leaves 492.
    expect((await fetchBatch(headers, { locations: locations(1000), fields: ORDINARY.slice(0, 5) })).body.credits.balance).toBe(492);
    const short = await fetchBatch(headers, { locations: locations(2), fields: ['parcel_id'] });
    expect(short.status).toBe(402);
    expect(short.body).toEqual({ detail: expect.any(String), code: 'insufficient_credits', required: 600, remaining: 492 });
    // A refused billed answer carries D34's billing headers too: nothing charged, the second
    // request of the minute on free's 20 rpm.
    expect(Object.fromEntries(['x-credits-charged', 'x-credits-remaining', 'x-ratelimit-limit', 'x-ratelimit-remaining'].map((name) => [name, short.headers.get(name)]))).toEqual({
      'x-credits-charged': '0',
      'x-credits-remaining': '492',
      'x-ratelimit-limit': '20',
      'x-ratelimit-remaining': '18',
    });
    expect((await usage(headers)).remaining).toBe(492);
    // What still fits is charged to the last credit, and the balance never goes below zero.
    expect((await fetchBatch(headers, { locations: locations(492), fields: ['elevation'] })).body.credits.balance).toBe(0);
    const empty = await fetchBatch(headers, { locations: locations(1), fields: ['elevation'] });
    expect(empty.body).toMatchObject({ code: 'insufficient_credits', required: 1, remaining: 0 });
    // A dry run still quotes.
    expect((await fetchBatch(headers, { locations: locations(1), fields: ['elevation'], dry_run: true })).body.credits).toEqual({ charged: 0, per_location: 1, balance: 0 });
  });

  describe('Idempotency-Key', () => {
    it('replays the stored answer without charging; another body is 422; after 24 h the key is new', async () => {
      const headers = await tenantOn('growth');
      const body = { locations: locations(3), fields: ['elevation', 'parcel_id'] };
      const first = await fetchBatch(headers, body, { 'idempotency-key': 'order-1' });
      expect(first.status).toBe(200);
      expect(first.headers.get('x-credits-charged')).toBe('903');
      // The same body, written differently (key order, spacing), is the same request.
      const again = await app.request('POST', '/v1/fetch/batch', {
        headers: { ...headers, 'idempotency-key': 'order-1' },
        rawBody: `{ "fields": ["elevation","parcel_id"],   "locations": ${JSON.stringify(body.locations)} }`,
      });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('x-credits-charged')).toBe('0');
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect((await usage(headers)).charged).toBe(903);

      const other = await fetchBatch(headers, { ...body, fields: ['elevation'] }, { 'idempotency-key': 'order-1' });
      expect(other.status).toBe(422);
      expect(other.body).toMatchObject({ code: 'idempotency_key_reused' });

      clock.advance(24 * 60 * 60 * 1000 + 1000);
      try {
        const later = await fetchBatch(headers, body, { 'idempotency-key': 'order-1' });
        expect(later.headers.get('x-credits-charged')).toBe('903');
        expect((await usage(headers)).charged).toBe(1806);
      } finally {
        clock.set(START);
      }
    });

    it('charges concurrent requests with one key once', async () => {
      const headers = await tenantOn('growth');
      const body = { locations: locations(2), fields: ['elevation', 'slope_degrees'] };
      const answers = await Promise.all(Array.from({ length: 8 }, () => fetchBatch(headers, body, { 'idempotency-key': 'burst' })));
      expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
      expect(answers.filter((answer) => answer.headers.get('x-credits-charged') === '4')).toHaveLength(1);
      expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true')).toHaveLength(7);
      for (const answer of answers) expect(answer.body.results).toEqual(answers[0].body.results);
      expect((await usage(headers)).charged).toBe(4);
    });
  });

  describe('rpm', () => {
    it('allows the plan\'s rpm billed requests per minute, then 429 with Retry-After until the next minute', async () => {
      const headers = await tenantOn('free'); // 20 a minute
      clock.set(new Date('2026-11-16T11:30:15Z'));
      try {
        for (let i = 0; i < 20; i++) {
          const answer = await fetchBatch(headers, { locations: locations(1), fields: ['elevation'], dry_run: i % 2 === 0 });
          expect(answer.status).toBe(200);
          expect(answer.headers.get('x-ratelimit-remaining')).toBe(String(19 - i));
        }
        const limited = await fetchBatch(headers, { locations: locations(1), fields: ['elevation'] });
        expect(limited.status).toBe(429);
        expect(limited.body).toMatchObject({ code: 'rate_limited' });
        expect(limited.headers.get('retry-after')).toBe('45');
        expect((await app.post('/v1/lookup', { lat: 31, lon: -97.5 }, { headers })).status).toBe(429);
        // Usage is free and not rate-limited; the refused request charged nothing.
        const spent = await app.get('/v1/usage', { headers });
        expect(spent.status).toBe(200);
        expect(spent.body.charged).toBe(10);
        expect(limited.headers.get('x-ratelimit-limit')).toBe('20');
        expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
        expect(limited.headers.get('x-credits-charged')).toBe('0');
        expect(limited.headers.get('x-credits-remaining')).toBe(String(spent.body.remaining));
        clock.advance(44_000);
        expect((await fetchBatch(headers, { locations: locations(1), fields: ['elevation'] })).status).toBe(429);
        clock.advance(1_000);
        const next = await fetchBatch(headers, { locations: locations(1), fields: ['elevation'] });
        expect(next.status).toBe(200);
        expect(next.headers.get('x-ratelimit-remaining')).toBe('19');
      } finally {
        clock.set(START);
      }
    });
  });

  describe('POST /v1/lookup', () => {
    let headers: Record<string, string>;
    beforeAll(async () => {
      headers = await tenantOn('free');
      await entitleTenant(app.stack.database.db, headers['x-tenant'], 'bill-tx');
    });

    it('geocodes a messy address (normalised equal) for the geocode cost', async () => {
      const answer = await app.post('/v1/lookup', { address: '  100 n. MAIN st ' }, { headers });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        query: { address: '  100 n. MAIN st ', lat: null, lon: null, market: null, include_parcel: false, radius_m: 250 },
        match: { lat: 31, lon: -97.5, address: '100 North Main Street', score: 1, match_type: 'address_exact', market: 'bill-tx', parcel_key: 'p1' },
        credits: { charged: 1, balance: 5000 + SIGNUP_GRANT - 1 },
      });
      expect(answer.headers.get('x-credits-charged')).toBe('1');
    });

    it('geocodes a misspelt address by trigram similarity', async () => {
      const answer = await app.post('/v1/lookup', { address: '200 Oaks Avenue', market: 'bill-tx' }, { headers });
      expect(answer.status).toBe(200);
      expect(answer.body.match).toMatchObject({ address: '200 Oak Avenue', match_type: 'address_similar', parcel_key: 'p2' });
      expect(answer.body.match.score).toBeGreaterThan(0.3);
      expect(answer.body.match.score).toBeLessThan(1);
    });

    it('answers 404 for an address matching nothing, charging nothing', async () => {
      const before = (await usage(headers)).charged;
      const answer = await app.post('/v1/lookup', { address: '9999 Nowhere Boulevard Xyzzy' }, { headers });
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ code: 'address_not_found' });
      expect((await usage(headers)).charged).toBe(before);
    });

    it('resolves the parcel at a point for the plan\'s resolve_credits', async () => {
      const before = (await usage(headers)).charged;
      const answer = await app.post('/v1/lookup', { lat: 31.0001, lon: -97.49, include_parcel: true }, { headers });
      expect(answer.status).toBe(200);
      expect(answer.body.match).toEqual({ lat: 31.0001, lon: -97.49, address: '200 Oak Avenue', score: null, match_type: 'point', market: 'bill-tx', parcel_key: 'p2' });
      expect(answer.body.parcel.values).toMatchObject({ parcel_id: 'p2', parcel_owner: 'Beta Farms', parcel_zoning: 'agricultural', parcel_match_type: 'exact_intersect', parcel_match_distance_m: 0 });
      expect(answer.body.credits.charged).toBe(300);
      expect(answer.headers.get('x-credits-charged')).toBe('300');
      const spent = await usage(headers);
      expect(spent.charged).toBe(before + 300);
      expect(spent.by_operation).toMatchObject({ geocode: 2, resolve: 300 });
    });

    it('finds the nearest parcel within radius_m and none beyond it', async () => {
      // 0.0005° of longitude east of p3's east edge at 31° N: about 47.7 m.
      const near = await app.post('/v1/lookup', { lat: 31, lon: -97.4795 + 0.0005, include_parcel: true, radius_m: 100 }, { headers });
      expect(near.body.parcel.values).toMatchObject({ parcel_id: 'p3', parcel_match_type: 'nearest_within_radius', parcel_match_radius_m: 100 });
      expect(near.body.parcel.values.parcel_match_distance_m).toBeGreaterThan(45);
      expect(near.body.parcel.values.parcel_match_distance_m).toBeLessThan(50);
      const far = await app.post('/v1/lookup', { lat: 31, lon: -97.4795 + 0.0005, include_parcel: true, radius_m: 20 }, { headers });
      expect(far.body.match.address).toBeNull();
      expect(far.body.parcel.values.parcel_id).toBeNull();
      expect(far.body.parcel.null_reasons.parcel_id).toBe('none_within_radius');
    });

    it('refuses neither an address nor a point, and a half point', async () => {
      expect((await app.post('/v1/lookup', {}, { headers })).status).toBe(422);
      const half = await app.post('/v1/lookup', { lat: 31 }, { headers });
      expect(half.status).toBe(422);
      expect(half.body.detail[0].loc).toEqual(['body', 'lon']);
    });
  });
});
