import { describe, expect, it } from 'vitest';
import { FIELDS } from './fields.js';
import { DECIMALS_BY_UNIT, roundCoordinate, roundFact, roundFacts, roundingOf } from './rounding.js';

describe('numbers rounded per unit (D40)', () => {
  it('has a rule for every unit a float of the catalog is in', () => {
    const units = new Set(FIELDS.filter((field) => field.type === 'float' && field.unit !== null).map((field) => field.unit!));
    expect([...units].filter((unit) => !(unit in DECIMALS_BY_UNIT))).toEqual([]);
  });

  it('rounds catalog fields by their unit', () => {
    expect(roundFact('nearest_substation_distance_m', 174.38540113374782)).toBe(174.4);
    expect(roundFact('nearest_wetland_distance_m', 99.95)).toBe(100); // unit "m"
    expect(roundFact('slope_degrees', 3.14159)).toBe(3.1);
    expect(roundFact('wetland_acres_on_parcel', 12.345678)).toBe(12.3457);
    expect(roundFact('avg_retail_electricity_price_industrial_usd_per_kwh', 0.0712345)).toBe(0.07123);
    expect(roundFact('grid_price_usd_per_mwh', 71.2345)).toBe(71.23);
    expect(roundFact('bedrock_depth_cm', 152.6)).toBe(153);
    expect(roundFact('seismic_pga_2pct_50yr_g', 0.123456)).toBe(0.1235);
  });

  it('rounds fractions to 0.0001 and other unitless floats to 4 significant digits', () => {
    expect(roundFact('wetland_fraction_of_parcel', 0.123456)).toBe(0.1235);
    expect(roundFact('surface_albedo_annual', 0.18765)).toBe(0.1877);
    expect(roundFact('tornado_annual_frequency', 0.000123456)).toBe(0.0001235);
    expect(roundFact('ndvi_current', -0.43219)).toBe(-0.4322);
    expect(roundFact('weibull_k_100m', 2.123456)).toBe(2.123);
  });

  it('leaves integers, strings, booleans and null alone', () => {
    expect(roundingOf('wetlands_within_100m_count')).toBeNull();
    expect(roundFact('wetlands_within_100m_count', 3)).toBe(3);
    expect(roundFact('zoning', 'industrial')).toBe('industrial');
    expect(roundFact('within_floodplain_polygon', false)).toBe(false);
    expect(roundFact('nearest_substation_distance_m', null)).toBeNull();
  });

  it('reads the unit of fields outside the catalog from their name, else shows them as stored', () => {
    expect(roundFact('acres', 120.123456)).toBe(120.1235);
    expect(roundFact('developable_acres', 0.00005)).toBe(0.0001);
    expect(roundFact('assessed_value_usd', 1234567.891)).toBe(1234567.89);
    expect(roundFact('frontage_ft', 12.345)).toBe(12.3);
    expect(roundFact('listing_score', 0.123456789)).toBe(0.123456789);
  });

  it('writes -0 as 0, keeps non-finite numbers, and rounds coordinates to 1e-7°', () => {
    expect(Object.is(roundFact('slope_degrees', -0.01), 0)).toBe(true);
    expect(roundFact('slope_degrees', Number.NaN)).toBeNaN();
    expect(roundCoordinate(-97.123456789)).toBe(-97.1234568);
    expect(roundCoordinate(30.3)).toBe(30.3);
  });

  it('rounds a record of facts into a new object, keeping odd names as own properties', () => {
    const facts = JSON.parse('{"acres":1.234567,"__proto__":1.5,"zoning":"M-1","nearest_substation_distance_m":2.25}');
    const shown = roundFacts(facts);
    expect(shown).not.toBe(facts);
    expect(JSON.stringify(shown)).toBe('{"acres":1.2346,"__proto__":1.5,"zoning":"M-1","nearest_substation_distance_m":2.3}');
    expect(facts.acres).toBe(1.234567);
  });
});
