// Polygon evaluators on hand-built wetlands, tracts and regulatory areas around (-97, 30):
// containment with holes, multipolygons and edges, distances to ring edges, whole-polygon
// areas, counts, ranked and joined attributes, GEOIDs and the CONUS rule.

import { describe, expect, it } from 'vitest';
import { Engine, buildVectorLayer } from './engine.js';
import { boxPolygon, feature, ring } from './testing/shapes.js';

const KX = 96_486.3; // meters per degree of longitude at 30°N
const R = 6_371_007.2; // authalic radius
const RAD = Math.PI / 180;
const ACRE = 4_046.856_422_4;

/** Area of a lon/lat rectangle on the authalic sphere: R²·Δλ·(sin φ2 − sin φ1). */
function rectM2(minLon: number, minLat: number, maxLon: number, maxLat: number): number {
  return R * R * (maxLon - minLon) * RAD * (Math.sin(maxLat * RAD) - Math.sin(minLat * RAD));
}

function ask(engine: Engine, lon: number, lat: number, fields: string[]) {
  const answer = engine.evaluate([{ lon, lat }], fields);
  return answer.record(0);
}

describe('wetlands (polygons with a hole, a multipolygon)', () => {
  const engine = new Engine();
  engine.load(
    buildVectorLayer('usfws_nwi', 'nwi-1', [
      // A 0.01° square with a 0.004° hole in its middle.
      feature(boxPolygon([-97, 30, -96.99, 30.01], [-96.997, 30.003, -96.993, 30.007]), {
        wetland_type: 'Freshwater Emergent Wetland',
        wetland_subtype: 'PEM1C',
      }),
      // Two 0.001° squares as one multipolygon.
      feature(
        {
          type: 'MultiPolygon',
          coordinates: [[ring([-96.98, 30, -96.979, 30.001])], [ring([-96.97, 30, -96.969, 30.001])]],
        },
        { wetland_type: 'Riverine' },
      ),
    ]),
  );
  const fields = [
    'intersects_wetland',
    'wetland_type',
    'wetland_subtype',
    'wetland_acres',
    'nearest_wetland_distance_m',
    'wetlands_within_100m_count',
    'wetlands_within_500m_count',
  ];
  const squareAcres = (rectM2(-97, 30, -96.99, 30.01) - rectM2(-96.997, 30.003, -96.993, 30.007)) / ACRE;

  it('inside the ring: attributes, the whole polygon in acres (hole subtracted), distance 0', () => {
    const { values, null_reasons } = ask(engine, -96.999, 30.001, fields);
    expect(values).toMatchObject({
      intersects_wetland: true,
      wetland_type: 'Freshwater Emergent Wetland',
      wetland_subtype: 'PEM1C',
      nearest_wetland_distance_m: 0,
      wetlands_within_100m_count: 1,
      wetlands_within_500m_count: 1,
    });
    expect(values.wetland_acres as number).toBeCloseTo(squareAcres, 3); // about 257.9 acres
    expect(null_reasons).toEqual({});
  });

  it('inside the hole is outside: not_inside, and the distance is to the hole edge', () => {
    const { values, null_reasons } = ask(engine, -96.995, 30.005, fields);
    expect(values.intersects_wetland).toBe(false);
    expect(null_reasons).toMatchObject({ wetland_type: 'not_inside', wetland_subtype: 'not_inside', wetland_acres: 'not_inside' });
    // The hole's west and east edges are 0.002° of longitude away (its north and south 0.002° of latitude, farther).
    expect(values.nearest_wetland_distance_m).toBeCloseTo(0.002 * KX, 1);
    expect(values.wetlands_within_100m_count).toBe(0);
    expect(values.wetlands_within_500m_count).toBe(1);
  });

  it('on the outer edge and on the hole edge counts as inside (distance 0)', () => {
    for (const [lon, lat] of [
      [-97, 30.005],
      [-96.997, 30.005],
      [-97, 30], // a vertex
    ]) {
      expect(ask(engine, lon, lat, fields).values).toMatchObject({ intersects_wetland: true, nearest_wetland_distance_m: 0 });
    }
  });

  it('in either part of a multipolygon; its area is both parts', () => {
    const { values } = ask(engine, -96.9695, 30.0005, fields);
    expect(values.wetland_type).toBe('Riverine');
    expect(values.wetland_acres as number).toBeCloseTo(
      (rectM2(-96.98, 30, -96.979, 30.001) + rectM2(-96.97, 30, -96.969, 30.001)) / ACRE,
      4,
    );
    expect(values.wetland_subtype).toBeNull();
    expect(ask(engine, -96.9745, 30.0005, fields).values.intersects_wetland).toBe(false);
  });

  it('outside: distance to the nearest edge within 500 m, counts by radius, null past 500 m', () => {
    const near = ask(engine, -97.001, 30.005, fields);
    expect(near.values.nearest_wetland_distance_m).toBeCloseTo(0.001 * KX, 1); // 96.5 m
    expect(near.values.wetlands_within_100m_count).toBe(1);
    const mid = ask(engine, -97.002, 30.005, fields); // 193 m
    expect(mid.values).toMatchObject({ wetlands_within_100m_count: 0, wetlands_within_500m_count: 1 });
    const far = ask(engine, -97.1, 30.005, fields); // 9.6 km
    expect(far.values).toMatchObject({ nearest_wetland_distance_m: null, wetlands_within_100m_count: 0, wetlands_within_500m_count: 0 });
    expect(far.null_reasons.nearest_wetland_distance_m).toBe('none_within_radius');
  });
});

describe('census tracts: GEOIDs keep their leading zeros', () => {
  it('answers the string as given, and restores zeros a file lost by storing a number', () => {
    const engine = new Engine();
    engine.load(
      buildVectorLayer('census_tiger', 'tiger-1', [
        feature(boxPolygon([-97, 30, -96.9, 30.1]), { tract_geoid: '01001020100', county: 'Autauga', region: 'Alabama', locality: 'Prattville' }),
        feature(boxPolygon([-96.9, 30, -96.8, 30.1]), { tract_geoid: 6037101110, county: 'Los Angeles', region: 'California', locality: 'Los Angeles' }),
      ]),
    );
    const fields = ['tract_geoid', 'political_county', 'political_region', 'political_locality'];
    expect(ask(engine, -96.95, 30.05, fields).values).toEqual({
      tract_geoid: '01001020100',
      political_county: 'Autauga',
      political_region: 'Alabama',
      political_locality: 'Prattville',
    });
    expect(ask(engine, -96.85, 30.05, fields).values.tract_geoid).toBe('06037101110');
  });
});

describe('overlapping polygons', () => {
  it('containing attributes come from the smallest containing polygon', () => {
    const engine = new Engine();
    engine.load(
      buildVectorLayer('usgs_pad_us', 'pad-1', [
        feature(boxPolygon([-98, 29, -96, 31]), { name: 'Big Forest', gap_status: '3' }),
        feature(boxPolygon([-97.1, 29.9, -96.9, 30.1]), { name: 'Small Wilderness', gap_status: 1 }),
      ]),
    );
    expect(ask(engine, -97, 30, ['protected_area_name', 'protected_area_gap_status']).values).toEqual({
      protected_area_name: 'Small Wilderness',
      protected_area_gap_status: 1,
    });
    expect(ask(engine, -97.5, 30, ['protected_area_gap_status']).values.protected_area_gap_status).toBe(3);
  });

  it('drought: the worst category of the nested polygons', () => {
    const engine = new Engine();
    engine.load(
      buildVectorLayer('usdm_drought_monitor', 'usdm-1', [
        feature(boxPolygon([-98, 29, -96, 31]), { category: 'D0' }),
        feature(boxPolygon([-97.1, 29.9, -96.9, 30.1]), { category: 'D2' }),
      ]),
    );
    expect(ask(engine, -97, 30, ['drought_category']).values.drought_category).toBe('D2');
    expect(ask(engine, -97.5, 30, ['drought_category']).values.drought_category).toBe('D0');
    expect(ask(engine, -90, 30, ['drought_category']).null_reasons.drought_category).toBe('not_inside');
  });

  it('air quality: nonattainment and maintenance areas, worst class, pollutants, blank when maintenance only', () => {
    const engine = new Engine();
    engine.load(
      buildVectorLayer('epa_green_book', 'gb-1', [
        feature(boxPolygon([-97.2, 29.8, -96.8, 30.2]), { area_status: 'Nonattainment', pollutant: 'Ozone', classification: 'Moderate' }),
        feature(boxPolygon([-97.1, 29.9, -96.9, 30.1]), { area_status: 'nonattainment', pollutant: 'Ozone', classification: 'Serious' }),
        feature(boxPolygon([-97.1, 29.9, -96.9, 30.1]), { area_status: 'nonattainment', pollutant: 'Lead', classification: 'Marginal' }),
        feature(boxPolygon([-98, 29, -96, 31]), { area_status: 'maintenance', pollutant: 'PM2.5' }),
      ]),
    );
    const fields = [
      'in_air_quality_nonattainment',
      'air_quality_nonattainment_pollutants',
      'air_quality_worst_classification',
      'in_air_quality_maintenance',
      'air_quality_maintenance_pollutants',
    ];
    expect(ask(engine, -97, 30, fields).values).toEqual({
      in_air_quality_nonattainment: true,
      air_quality_nonattainment_pollutants: 'Lead, Ozone',
      air_quality_worst_classification: 'Serious',
      in_air_quality_maintenance: true,
      air_quality_maintenance_pollutants: 'PM2.5',
    });
    const maintenanceOnly = ask(engine, -97.5, 30, fields);
    expect(maintenanceOnly.values).toEqual({
      in_air_quality_nonattainment: false,
      air_quality_nonattainment_pollutants: null,
      air_quality_worst_classification: '',
      in_air_quality_maintenance: true,
      air_quality_maintenance_pollutants: 'PM2.5',
    });
    const clean = ask(engine, -90, 30, fields);
    expect(clean.values).toMatchObject({ in_air_quality_nonattainment: false, in_air_quality_maintenance: false });
    expect(clean.null_reasons).toEqual({
      air_quality_nonattainment_pollutants: 'not_inside',
      air_quality_worst_classification: 'not_inside',
      air_quality_maintenance_pollutants: 'not_inside',
    });
  });
});

describe('polygon fields with a value for covered points outside every polygon', () => {
  it('special use airspace answers none, surface management PRIVATE_OR_UNKNOWN', () => {
    const engine = new Engine();
    engine.load(buildVectorLayer('faa_special_use_airspace', 'sua-1', [feature(boxPolygon([-97.1, 29.9, -96.9, 30.1]), { airspace_type: 'moa' })]));
    engine.load(buildVectorLayer('blm_surface_management_agency', 'sma-1', []));
    const fields = ['special_use_airspace_type', 'surface_management_agency'];
    expect(ask(engine, -97, 30, fields).values).toEqual({ special_use_airspace_type: 'moa', surface_management_agency: 'PRIVATE_OR_UNKNOWN' });
    expect(ask(engine, -95, 30, fields).values.special_use_airspace_type).toBe('none');
  });
});

describe('areas, booleans from counts, queue footprints', () => {
  it('a building footprint in square meters and fiber availability from the provider count', () => {
    const engine = new Engine();
    engine.load(buildVectorLayer('overture_buildings', 'b-1', [feature(boxPolygon([-97, 30, -96.9999, 30.0001]), { height_m: '12.5', num_floors: 3 })]));
    engine.load(
      buildVectorLayer('fcc_broadband_map', 'bb-1', [
        feature(boxPolygon([-97.1, 29.9, -97, 30.1]), { fiber_provider_count: 0 }),
        feature(boxPolygon([-97, 29.9, -96.9, 30.1]), { fiber_provider_count: 2, mobile_5g_class: '7/1 Mbps' }),
      ]),
    );
    const { values } = ask(engine, -96.99995, 30.00005, [
      'primary_building_footprint_sqm',
      'primary_building_height_m',
      'primary_building_num_floors',
      'fiber_provider_count',
      'fiber_broadband_available',
    ]);
    expect(values.primary_building_footprint_sqm as number).toBeCloseTo(rectM2(-97, 30, -96.9999, 30.0001), 2); // about 107 m²
    expect(values).toMatchObject({ primary_building_height_m: 12.5, primary_building_num_floors: 3, fiber_provider_count: 2, fiber_broadband_available: true });
    expect(ask(engine, -97.05, 30, ['fiber_broadband_available']).values.fiber_broadband_available).toBe(false);
  });

  it('interconnection queue: the county polygon and the ISO footprint that contain the point', () => {
    const engine = new Engine();
    engine.load(
      buildVectorLayer('lbnl_queued_up', 'q-1', [
        feature(boxPolygon([-97.1, 29.9, -96.9, 30.1]), { area_kind: 'county', active_capacity_mw: 1250.5 }),
        feature(boxPolygon([-100, 25, -93, 36]), { area_kind: 'iso', iso: 'ERCOT', active_capacity_mw: 250_000 }),
      ]),
    );
    const answer = ask(engine, -97, 30, [
      'interconnection_queue_active_capacity_county_mw',
      'interconnection_queue_active_capacity_ercot_mw',
      'interconnection_queue_active_capacity_pjm_mw',
    ]);
    expect(answer.values).toEqual({
      interconnection_queue_active_capacity_county_mw: 1250.5,
      interconnection_queue_active_capacity_ercot_mw: 250_000,
      interconnection_queue_active_capacity_pjm_mw: null,
    });
    expect(answer.null_reasons).toEqual({ interconnection_queue_active_capacity_pjm_mw: 'not_inside' });
  });
});

describe('CONUS-only fields (general rule 5)', () => {
  it('are null outside_conus outside the contiguous US even where the layer covers the point', () => {
    const engine = new Engine();
    engine.load(buildVectorLayer('usda_nass_cdl', 'cdl-1', [feature(boxPolygon([-100, 35, -75, 50]), { crop_class: 'Corn', cultivated: 'true', dominant_crop_5y: 'Corn' })]));
    const fields = ['cdl_class', 'is_cultivated', 'dominant_crop_5y'];
    expect(ask(engine, -98.5, 39, fields).values).toEqual({ cdl_class: 'Corn', is_cultivated: true, dominant_crop_5y: 'Corn' });
    const toronto = ask(engine, -79.38, 43.65, fields);
    expect(toronto.values).toEqual({ cdl_class: null, is_cultivated: null, dominant_crop_5y: null });
    expect(new Set(Object.values(toronto.null_reasons))).toEqual(new Set(['outside_conus']));
    // The edge: 1 km either side of the 49th parallel.
    expect(ask(engine, -97, 48.991, fields).values.cdl_class).toBe('Corn');
    expect(ask(engine, -97, 49.009, fields).null_reasons.cdl_class).toBe('outside_conus');
  });
});
