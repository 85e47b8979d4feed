import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MODES, startTestStack, type TestStack } from '@landscreen/testing';

describe.each(DATABASE_MODES)('catalog metadata on %s', (mode) => {
  let app: TestStack;
  beforeAll(async () => {
    app = await startTestStack(mode);
  });
  afterAll(() => app?.close());

  it('GET /v1/meta/plans answers the price list of the spec', async () => {
    const { status, body } = await app.get('/v1/meta/plans');
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['credits', 'plans']);
    expect(body.plans.map((plan: any) => plan.id)).toEqual(['free', 'build', 'growth', 'scale', 'market']);
    expect(body.plans[0]).toEqual({
      id: 'free',
      name: 'Free',
      credits_included: 5000,
      field_requests_included: 0,
      field_requests_signup_grant: 1,
      overage_rate_usd_per_1k: null,
      price_usd_month: 0,
      resolve_credits: 300,
      resolve_enabled: true,
      rpm: 20,
    });
    expect(body.credits.costs).toMatchObject({ ask: 10, fetch_per_field: 1, proximity_per_driving_calc: 12, resolve: null });
    expect(body.credits.parcel_field_group_credits_by_plan).toEqual({ build: 300, free: 300, growth: 300, market: 150, scale: 150 });
    expect(body.credits.overage_rate_usd_per_1k).toBeNull();
  });

  it('GET /v1/meta/fields answers the catalog with billing, filtered by layer, preset and name', async () => {
    const all = (await app.get('/v1/meta/fields')).body;
    expect(all.billing).toMatchObject({ fetch_credits_per_field: 1, unit: 'credits' });
    expect(all.billing.metered_groups.parcel_record.credits_per_location_by_plan.scale).toBe(150);
    expect(all.fields.length).toBeGreaterThan(200);

    const terrain = (await app.get('/v1/meta/fields', { query: { layer: 'terrain' } })).body.fields;
    expect(terrain.length).toBeGreaterThan(0);
    expect(terrain.every((field: any) => field.layer === 'terrain')).toBe(true);

    const solar = (await app.get('/v1/meta/fields', { query: { preset: 'solar_siting' } })).body.fields;
    expect(solar.every((field: any) => field.presets.includes('solar_siting'))).toBe(true);

    const [slope] = (await app.get('/v1/meta/fields', { query: { name: 'slope_degrees' } })).body.fields;
    expect(slope).toMatchObject({ name: 'slope_degrees', type: 'float', unit: 'degrees', nullable: false, ttl_seconds: 31536000 });
    expect(slope.billing).toEqual({ credits_per_location: 1, metered_group: null });

    const parcel = (await app.get('/v1/meta/fields', { query: { name: 'parcel_owner' } })).body.fields[0];
    expect(parcel.billing).toEqual({ credits_per_location: null, metered_group: 'parcel_record' });

    expect((await app.get('/v1/meta/fields', { query: { layer: 'moon' } })).body.fields).toEqual([]);
  });
});
