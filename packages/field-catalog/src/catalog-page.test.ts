import { describe, expect, it } from 'vitest';
import { buildCatalogPage } from './catalog-page.js';
import { FIELDS } from './fields.js';
import { PRICE_LIST } from './plans.js';

describe('buildCatalogPage', () => {
  it('returns every field and the billing block without filters', () => {
    const page = buildCatalogPage();
    expect(page.fields).toEqual(FIELDS);
    expect(page.billing).toMatchObject({ fetch_credits_per_field: 1, unit: 'credits' });
    expect(typeof page.billing.note).toBe('string');
    expect(page.billing.metered_groups.parcel_record).toEqual({
      credits_per_location_by_plan: { build: 300, free: 300, growth: 300, market: 150, scale: 150 },
      fields: PRICE_LIST.credits.parcel_field_group,
      note: PRICE_LIST.credits.parcel_field_group_note,
    });
  });

  it('filters by layer', () => {
    const fields = buildCatalogPage({ layer: 'land_cover' }).fields;
    expect(fields.map((f) => f.name)).toEqual([
      'lcms_class',
      'land_use_class',
      'tree_canopy_pct',
      'ndvi_current',
      'ndvi_change_5y',
      'cdl_class',
      'is_cultivated',
      'dominant_crop_5y',
    ]);
  });

  it('filters by preset', () => {
    const fields = buildCatalogPage({ preset: 'building_lookup' }).fields;
    expect(fields.map((f) => f.name)).toEqual([
      'primary_building_height_m',
      'primary_building_num_floors',
      'primary_building_footprint_sqm',
      'primary_building_map_class',
    ]);
    expect(buildCatalogPage({ preset: 'site_selection' }).fields.every((f) => f.presets.includes('site_selection'))).toBe(true);
  });

  it('filters by exact name', () => {
    expect(buildCatalogPage({ name: 'elevation' }).fields.map((f) => f.name)).toEqual(['elevation']);
    expect(buildCatalogPage({ name: 'elev' }).fields).toEqual([]);
  });

  it('combines filters with AND', () => {
    const fields = buildCatalogPage({ layer: 'parcels', preset: 'site_selection' }).fields;
    expect(fields.length).toBeGreaterThan(0);
    expect(fields.every((f) => f.layer === 'parcels' && f.presets.includes('site_selection'))).toBe(true);
    expect(fields.map((f) => f.name)).toContain('parcel_zoning');
    expect(buildCatalogPage({ layer: 'terrain', name: 'parcel_id' }).fields).toEqual([]);
  });

  it('matches nothing for an unknown filter value', () => {
    expect(buildCatalogPage({ layer: 'geology' }).fields).toEqual([]);
    expect(buildCatalogPage({ preset: 'ter' }).fields).toEqual([]);
  });
});
