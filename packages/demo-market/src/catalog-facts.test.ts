import { FIELD_BY_NAME, type FieldRecord } from '@landscreen/field-catalog';
import { describe, expect, it } from 'vitest';
import { DEMO_CATALOG_FIELDS, DEMO_FREE_FACT_FIELDS, DEMO_TYPED_FIELDS, LAND_USES, LISTING_STATUSES, ZONINGS } from './facts.js';
import { generateDemoParcels } from './generate.js';

const market = [...generateDemoParcels()].map((f) => f.properties);
const valuesOf = (name: string): unknown[] => market.map((p) => p[name]);
const nullShare = (name: string): number => valuesOf(name).filter((v) => v === null).length / market.length;

/** Fields whose null has a meaning besides "unknown": nothing within the search radius. */
const SEARCH_LIMITED: Record<string, number> = { nearest_rail_line_distance_m: 5000, nearest_wetland_distance_m: 500 };

/** The fields the issue asks for by name. */
const REQUIRED = [
  'nearest_substation_distance_m',
  'nearest_substation_max_voltage_kv',
  'substations_within_radius_count',
  'nearest_transmission_line_distance_m',
  'nearest_transmission_line_voltage_kv',
  'transmission_lines_within_radius_count',
  'nearest_gas_pipeline_distance_m',
  'nearest_major_road_distance_m',
  'nearest_rail_line_distance_m',
  'within_floodplain_polygon',
  'intersects_wetland',
  'nearest_wetland_distance_m',
  'slope_degrees',
  'elevation',
  'tree_canopy_pct',
  'in_opportunity_zone',
  'electric_utility_service_territory',
  'avg_retail_electricity_price_industrial_usd_per_kwh',
  'ghi_annual_kwh_m2_day',
  'mean_wind_speed_100m_ms',
  'drought_category',
  'seismic_design_category',
  'fiber_provider_count',
  'housing_units_within_1km',
  'soil_shrink_swell_class',
  'prime_farmland_classification',
];

function matchesCatalogType(field: FieldRecord, value: unknown): boolean {
  switch (field.type) {
    case 'float':
      return typeof value === 'number' && Number.isFinite(value);
    case 'int':
      return Number.isInteger(value);
    case 'bool':
      return typeof value === 'boolean';
    default:
      return typeof value === 'string' && (field.enum === undefined || field.enum.includes(value));
  }
}

describe('catalog facts of the demo market', () => {
  it('carries every field the issue names, and only catalog names among the point-data facts', () => {
    for (const name of REQUIRED) expect(DEMO_CATALOG_FIELDS).toContain(name);
    for (const name of DEMO_CATALOG_FIELDS) expect(FIELD_BY_NAME.has(name), name).toBe(true);
    for (const name of [...DEMO_TYPED_FIELDS, ...DEMO_FREE_FACT_FIELDS]) expect(FIELD_BY_NAME.has(name), name).toBe(false);
  });

  it("gives every catalog fact the catalog's type, and an enumerated value where the catalog enumerates", () => {
    for (const name of DEMO_CATALOG_FIELDS) {
      const field = FIELD_BY_NAME.get(name)!;
      const wrong = valuesOf(name).filter((v) => v !== null && !matchesCatalogType(field, v));
      expect(wrong.slice(0, 5), `${name} (${field.type})`).toEqual([]);
    }
  });

  it('never leaves a non-nullable catalog fact null', () => {
    for (const name of DEMO_CATALOG_FIELDS.filter((n) => !FIELD_BY_NAME.get(n)!.nullable)) {
      expect(nullShare(name), name).toBe(0);
    }
  });

  it('leaves 1-6 % of each nullable catalog fact unknown', () => {
    for (const name of DEMO_CATALOG_FIELDS.filter((n) => FIELD_BY_NAME.get(n)!.nullable && !(n in SEARCH_LIMITED))) {
      const share = nullShare(name);
      expect(share, name).toBeGreaterThanOrEqual(0.01);
      expect(share, name).toBeLessThanOrEqual(0.06);
    }
  });

  it('nulls search-limited distances beyond their radius, and some within it as unknown', () => {
    for (const [name, limit] of Object.entries(SEARCH_LIMITED)) {
      const values = valuesOf(name).filter((v): v is number => v !== null);
      expect(Math.max(...values), name).toBeLessThanOrEqual(limit);
      expect(nullShare(name), name).toBeGreaterThan(0.05);
      expect(nullShare(name), name).toBeLessThan(0.8);
    }
  });

  it('uses the units of the catalog', () => {
    const within = (name: string, min: number, max: number): void => {
      const values = valuesOf(name).filter((v): v is number => v !== null);
      expect(Math.min(...values), name).toBeGreaterThanOrEqual(min);
      expect(Math.max(...values), name).toBeLessThanOrEqual(max);
    };
    within('elevation', 50, 600); // metres above sea level, central Texas
    within('slope_degrees', 0, 45);
    within('aspect_degrees', 0, 359.99);
    within('tree_canopy_pct', 0, 100);
    within('avg_retail_electricity_price_industrial_usd_per_kwh', 0.04, 0.15); // USD per kWh, not cents
    within('ghi_annual_kwh_m2_day', 4, 6.5);
    within('mean_wind_speed_100m_ms', 3, 12);
    within('nearest_substation_max_voltage_kv', 69, 345);
    within('substations_radius_m', 5000, 5000);
  });

  it('keeps related facts consistent', () => {
    const price = (p: Record<string, unknown>): number | null => p.avg_retail_electricity_price_industrial_usd_per_kwh as number | null;
    const inconsistent = market.filter(
      (p) =>
        (price(p) === null ? p.grid_price_usd_per_mwh !== null : Math.abs((p.grid_price_usd_per_mwh as number) - price(p)! * 1000) > 1e-6) ||
        (p.substations_radius_m === null) !== (p.substations_within_radius_count === null) ||
        (p.fiber_provider_count === null ? p.fiber_broadband_available !== null : p.fiber_broadband_available !== (p.fiber_provider_count as number) > 0) ||
        (p.intersects_wetland === true && p.nearest_wetland_distance_m !== 0 && p.nearest_wetland_distance_m !== null) ||
        (p.nearest_wetland_distance_m === 0 && p.intersects_wetland !== true),
    );
    expect(inconsistent.slice(0, 3)).toEqual([]);
  });

  it('types the typed facts and the free facts', () => {
    const wrong = market.filter(
      (p) =>
        !(ZONINGS as readonly unknown[]).includes(p.zoning) ||
        !(LAND_USES as readonly unknown[]).includes(p.land_use) ||
        !(LISTING_STATUSES as readonly unknown[]).includes(p.listing_status) ||
        typeof p.apn !== 'string' ||
        typeof p.address !== 'string' ||
        typeof p.owner_name !== 'string' ||
        typeof p.school_district !== 'string' ||
        !(Number.isInteger(p.assessed_value_usd) && (p.assessed_value_usd as number) > 0) ||
        !(typeof p.acres === 'number' && p.acres > 0) ||
        !(typeof p.developable_acres === 'number' && p.developable_acres >= 0 && p.developable_acres <= p.acres) ||
        !(p.last_sale_year === null || (Number.isInteger(p.last_sale_year) && (p.last_sale_year as number) <= 2025)),
    );
    expect(wrong.slice(0, 3)).toEqual([]);
    for (const zoning of ZONINGS) expect(valuesOf('zoning'), zoning).toContain(zoning);
    for (const status of LISTING_STATUSES) expect(valuesOf('listing_status'), status).toContain(status);
    expect(nullShare('last_sale_year')).toBeGreaterThan(0.01);
  });

  it('uses every value of the enumerations a rule might test', () => {
    for (const [name, expected] of [
      ['soil_shrink_swell_class', ['Low', 'Moderate', 'High', 'Very High']],
      ['prime_farmland_classification', ['prime', 'prime_if_conditions_met', 'statewide_importance', 'local_importance', 'not_prime']],
      ['drought_category', ['D0', 'D1', 'D2']],
      ['seismic_design_category', ['A', 'B']],
      ['nearest_transmission_line_voltage_kv', [69, 138, 345]],
      ['within_floodplain_polygon', [true, false]],
      ['intersects_wetland', [true, false]],
      ['in_opportunity_zone', [true, false]],
    ] as const) {
      const seen = new Set(valuesOf(name));
      for (const value of expected) expect(seen.has(value), `${name} ${value}`).toBe(true);
    }
  });
});
