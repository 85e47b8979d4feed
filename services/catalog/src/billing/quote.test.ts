import { describe, expect, it } from 'vitest';
import { FIELDS, getPlan, PLAN_IDS } from '@landscreen/field-catalog';
import { quoteCredits, signupGrantCredits } from './quote.js';
import { nextUtcMonth, utcMonth } from './month.js';

const PARCEL = FIELDS.filter((field) => field.billing.metered_group === 'parcel_record').map((field) => field.name);

describe('quoteCredits: billing rules 1-3 with exact figures on each plan', () => {
  // plan -> the parcel_record group's price per location (the spec: equals resolve_credits).
  const GROUP: Record<string, number> = { free: 300, build: 300, growth: 300, scale: 150, market: 150 };

  it.each(PLAN_IDS)('%s', (plan) => {
    const group = GROUP[plan];
    // Rule 1: fetch_per_field (1) x distinct ordinary fields.
    expect(quoteCredits(plan, ['elevation'], 1)).toEqual({ perLocation: 1, total: 1 });
    expect(quoteCredits(plan, ['elevation', 'slope_degrees', 'elevation'], 1)).toEqual({ perLocation: 2, total: 2 });
    // Rule 2: the group once per location, however many of its fields, on top of the others.
    expect(quoteCredits(plan, ['parcel_id'], 1)).toEqual({ perLocation: group, total: group });
    expect(quoteCredits(plan, PARCEL, 1)).toEqual({ perLocation: group, total: group });
    expect(quoteCredits(plan, ['elevation', 'parcel_id', 'tract_geoid', 'parcel_owner'], 1)).toEqual({ perLocation: 2 + group, total: 2 + group });
    // Rule 3: times the locations.
    expect(quoteCredits(plan, ['elevation', 'parcel_id', 'tract_geoid'], 1000)).toEqual({ perLocation: 2 + group, total: 1000 * (2 + group) });
    expect(quoteCredits(getPlan(plan)!, ['elevation'], 0)).toEqual({ perLocation: 1, total: 0 });
  });
});

describe('the sign-up grant', () => {
  it('is one location of every catalog field on the plan, times field_requests_signup_grant', () => {
    const ordinary = FIELDS.filter((field) => field.billing.metered_group === null).length;
    expect(ordinary).toBe(192);
    expect(signupGrantCredits(getPlan('free')!)).toBe(192 + 300);
    for (const plan of ['build', 'growth', 'scale', 'market']) expect(signupGrantCredits(getPlan(plan)!)).toBe(0);
  });
});

describe('UTC months', () => {
  it('bound a month in UTC whatever the local time', () => {
    expect(utcMonth(new Date('2026-11-30T23:59:59.999Z'))).toBe('2026-11-01');
    expect(utcMonth(new Date('2026-12-01T00:00:00Z'))).toBe('2026-12-01');
    expect(nextUtcMonth(new Date('2026-12-31T12:00:00Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });
});
