import { describe, expect, it } from 'vitest';
import { batchCredits, creditsPerLocation, locationCredits } from './billing.js';
import { CatalogError, UnknownFieldError, UnknownPlanError } from './errors.js';
import { PLAN_IDS, getPlan } from './plans.js';

const ORDINARY = ['elevation', 'slope_degrees', 'nearest_substation_distance_m'];
const PARCEL = ['parcel_owner', 'parcel_zoning'];

describe('creditsPerLocation', () => {
  it('charges 1 credit per ordinary field (rule 1)', () => {
    expect(creditsPerLocation(ORDINARY, 'free')).toBe(3);
    expect(creditsPerLocation(ORDINARY, 'market')).toBe(3);
  });

  it('charges the parcel_record group once per location at the plan price (rule 2)', () => {
    expect(creditsPerLocation([...ORDINARY.slice(0, 2), ...PARCEL], 'scale')).toBe(2 + 150);
    expect(creditsPerLocation(PARCEL, 'free')).toBe(300);
    expect(creditsPerLocation(['parcel_id'], 'market')).toBe(150);
    expect(creditsPerLocation(['wetland_fraction_of_parcel'], 'growth')).toBe(300);
  });

  it('prices the group at resolve_credits on every plan', () => {
    for (const plan of PLAN_IDS) {
      expect(creditsPerLocation(['elevation', ...PARCEL], plan)).toBe(1 + getPlan(plan)!.resolve_credits);
    }
  });

  it('counts a field named twice once', () => {
    expect(creditsPerLocation(['elevation', 'elevation', 'slope_degrees'], 'free')).toBe(2);
    expect(creditsPerLocation(['parcel_owner', 'parcel_owner', 'elevation', 'elevation'], 'scale')).toBe(151);
  });

  it('costs nothing for an empty selection', () => {
    expect(creditsPerLocation([], 'free')).toBe(0);
  });

  it('breaks the price down', () => {
    expect(locationCredits(['elevation', ...PARCEL], 'build')).toEqual({
      ordinary_fields: 1,
      metered_groups: { parcel_record: 300 },
      per_location: 301,
    });
    expect(locationCredits(['elevation'], 'build').metered_groups).toEqual({});
  });

  it('rejects unknown fields and plans with typed errors', () => {
    expect(() => creditsPerLocation(['elevaton'], 'free')).toThrow(UnknownFieldError);
    expect(() => creditsPerLocation(['elevation'], 'gold')).toThrow(UnknownPlanError);
    try {
      creditsPerLocation(['elevation'], 'gold');
    } catch (error) {
      expect(error).toBeInstanceOf(CatalogError);
      expect((error as CatalogError).code).toBe('unknown_plan');
    }
  });
});

describe('batchCredits', () => {
  it('multiplies the per-location credits by the number of locations (rule 3)', () => {
    expect(batchCredits(ORDINARY, 'free', 10)).toBe(30);
    expect(batchCredits([...ORDINARY.slice(0, 2), ...PARCEL], 'scale', 10)).toBe(1520);
    expect(batchCredits(['elevation', 'elevation'], 'growth', 1000)).toBe(1000);
    expect(batchCredits(ORDINARY, 'free', 0)).toBe(0);
  });

  it('rejects a location count that is not a non-negative integer', () => {
    expect(() => batchCredits(ORDINARY, 'free', -1)).toThrow(RangeError);
    expect(() => batchCredits(ORDINARY, 'free', 1.5)).toThrow(RangeError);
    expect(() => batchCredits(ORDINARY, 'free', Number.NaN)).toThrow(RangeError);
  });
});
