// The spec's two derivations (formula_version 1), the parcel_record group and the parcel-overlay
// measures of formula_version 1 on a hand-built parcel.

import { describe, expect, it } from 'vitest';
import { NULL_REASONS, type NullReason } from './answers.js';
import { Engine, buildGridLayer, buildVectorLayer } from './engine.js';
import type { ParcelMatch } from './parcel-fields.js';
import { geodesicAreaM2 } from './polygon-area.js';
import { boxPolygon, feature, point, type Box } from './testing/shapes.js';
import type { PolygonalGeometry } from './geometry.js';

const ACRE = 4_046.856_422_4;
const acres = (box: Box) => geodesicAreaM2(boxPolygon(box) as PolygonalGeometry) / ACRE;

function ask(engine: Engine, lon: number, lat: number, fields: string[], parcel?: ParcelMatch | null) {
  const answer = engine.evaluate([{ lon, lat }], fields, parcel === undefined ? {} : { parcels: [parcel] });
  return answer.record(0);
}

describe('derivations (formula_version 1)', () => {
  const engine = new Engine();
  engine.load(buildVectorLayer('eia_861_retail_sales', 'eia861-2024', [feature(boxPolygon([-98, 29, -96, 31]), { industrial_usd_per_kwh: '0.0712' })]));
  engine.load(buildVectorLayer('eia_natural_gas_prices', 'ng-2024', [feature(boxPolygon([-98, 29, -96, 31]), { industrial_usd_per_mcf: 3.5 })]));

  it('grid price = retail industrial price x 1000; on-site gas cost = gas price / 1.037 x 9.5', () => {
    const { values, provenance } = ask(engine, -97, 30, ['grid_price_usd_per_mwh', 'modeled_onsite_gas_generation_cost_usd_per_mwh']);
    expect(values.grid_price_usd_per_mwh).toBeCloseTo(71.2, 10);
    expect(values.modeled_onsite_gas_generation_cost_usd_per_mwh).toBeCloseTo((3.5 / 1.037) * 9.5, 10); // 32.06
    expect(provenance.grid_price_usd_per_mwh).toEqual({ layers: [{ source: 'eia_861_retail_sales', layer_version: 'eia861-2024' }], formula_version: 1 });
  });

  it('does not answer the hidden input unless it was asked for', () => {
    const answer = engine.evaluate([{ lon: -97, lat: 30 }], ['grid_price_usd_per_mwh']);
    expect(answer.fields).toEqual(['grid_price_usd_per_mwh']);
    expect(answer.values).toHaveLength(1);
  });

  it('input_null when the input is null at the point; no_coverage when its layer is not loaded', () => {
    expect(ask(engine, -90, 30, ['grid_price_usd_per_mwh']).null_reasons.grid_price_usd_per_mwh).toBe('input_null');
    expect(ask(new Engine(), -97, 30, ['grid_price_usd_per_mwh']).null_reasons.grid_price_usd_per_mwh).toBe('no_coverage');
  });
});

describe('the parcel_record group', () => {
  const PARCEL: Box = [-97, 30, -96.99, 30.01];
  const match: ParcelMatch = {
    vintage: 'vintage-7',
    parcel: { id: 'P-1', geometry: boxPolygon(PARCEL) as PolygonalGeometry, apn: '012-345', owner: 'Acme Land LLC', zoning: null, data_source: 'vendor_paid' },
    match_type: 'exact_intersect',
    distance_m: 0,
    radius_m: 0,
  };
  const engine = new Engine();
  // Wetland: the parcel's square with a hole; easement and floodplain: the parcel's west half.
  engine.load(buildVectorLayer('usfws_nwi', 'nwi-1', [feature(boxPolygon(PARCEL, [-96.997, 30.003, -96.993, 30.007]))]));
  engine.load(buildVectorLayer('nced_easements', 'nced-1', [feature(boxPolygon([-97, 30, -96.995, 30.01]))]));
  engine.load(buildVectorLayer('fema_nfhl', 'nfhl-1', [feature(boxPolygon([-97, 30, -96.995, 30.01]))]));

  it('answers the matched parcel facts; exact matches have distance and radius 0', () => {
    const { values, null_reasons, provenance } = ask(
      engine,
      -96.995,
      30.005,
      ['parcel_id', 'parcel_apn', 'parcel_owner', 'parcel_zoning', 'parcel_data_source', 'parcel_match_type', 'parcel_match_distance_m', 'parcel_match_radius_m', 'parcel_area_m2', 'parcel_geometry_wkt', 'parcel_boundary_geojson'],
      match,
    );
    expect(values).toMatchObject({
      parcel_id: 'P-1',
      parcel_apn: '012-345',
      parcel_owner: 'Acme Land LLC',
      parcel_data_source: 'vendor_paid',
      parcel_match_type: 'exact_intersect',
      parcel_match_distance_m: 0,
      parcel_match_radius_m: 0,
      parcel_geometry_wkt: 'POLYGON((-97 30, -96.99 30, -96.99 30.01, -97 30.01, -97 30))',
    });
    expect(JSON.parse(values.parcel_boundary_geojson as string)).toEqual(match.parcel.geometry);
    expect(values.parcel_area_m2 as number).toBeCloseTo(acres(PARCEL) * ACRE, 3);
    expect(null_reasons).toEqual({ parcel_zoning: 'not_published' });
    expect(provenance.parcel_id).toEqual({ layers: [{ source: 'parcel_vendor', layer_version: 'vintage-7' }], formula_version: null });
  });

  it('a nearest-within-radius match reports its distance and radius', () => {
    const near: ParcelMatch = { ...match, match_type: 'nearest_within_radius', distance_m: 42.5, radius_m: 250 };
    expect(ask(engine, -97.0005, 30.005, ['parcel_match_type', 'parcel_match_distance_m', 'parcel_match_radius_m'], near).values).toEqual({
      parcel_match_type: 'nearest_within_radius',
      parcel_match_distance_m: 42.5,
      parcel_match_radius_m: 250,
    });
  });

  it('overlays (formula_version 1): wetland and easement acres and fractions, developable acres, solar MWac', () => {
    const overlays = [
      'wetland_acres_on_parcel',
      'wetland_fraction_of_parcel',
      'easement_acres_on_parcel',
      'easement_fraction_of_parcel',
      'developable_acres_proxy',
      'onsite_solar_potential_mwac_low',
      'onsite_solar_potential_mwac_high',
    ];
    const { values, provenance } = ask(engine, -96.995, 30.005, overlays, match);
    const parcel = acres(PARCEL);
    const wetland = parcel - acres([-96.997, 30.003, -96.993, 30.007]);
    const easement = acres([-97, 30, -96.995, 30.01]);
    // Uncovered: the part of the wetland's hole east of the west half.
    const developable = acres([-96.995, 30.003, -96.993, 30.007]);
    expect(values.wetland_acres_on_parcel as number).toBeCloseTo(wetland, 3);
    expect(values.wetland_fraction_of_parcel as number).toBeCloseTo(wetland / parcel, 6);
    expect(values.easement_acres_on_parcel as number).toBeCloseTo(easement, 3);
    expect(values.easement_fraction_of_parcel as number).toBeCloseTo(0.5, 4);
    expect(values.developable_acres_proxy as number).toBeCloseTo(developable, 3); // about 20.6 acres
    expect(values.onsite_solar_potential_mwac_low as number).toBeCloseTo(developable / 7, 3);
    expect(values.onsite_solar_potential_mwac_high as number).toBeCloseTo(developable / 5, 3);
    expect(provenance.developable_acres_proxy).toEqual({
      layers: [
        { source: 'parcel_vendor', layer_version: 'vintage-7' },
        { source: 'usfws_nwi', layer_version: 'nwi-1' },
        { source: 'nced_easements', layer_version: 'nced-1' },
        { source: 'fema_nfhl', layer_version: 'nfhl-1' },
      ],
      formula_version: 1,
    });
  });

  it('a parcel clear of every overlay layer has 0 covered acres and all of it developable', () => {
    const clear: ParcelMatch = { ...match, parcel: { ...match.parcel, geometry: boxPolygon([-96.9, 30, -96.89, 30.01]) as PolygonalGeometry } };
    const { values } = ask(engine, -96.895, 30.005, ['wetland_acres_on_parcel', 'developable_acres_proxy'], clear);
    expect(values.wetland_acres_on_parcel).toBe(0);
    expect(values.developable_acres_proxy as number).toBeCloseTo(acres([-96.9, 30, -96.89, 30.01]), 6);
  });

  it('no_parcel when no parcel matched; no_coverage without a parcel index or an overlaid layer', () => {
    expect(ask(engine, -90, 30, ['parcel_id', 'wetland_acres_on_parcel'], null).null_reasons).toEqual({
      parcel_id: 'no_parcel',
      wetland_acres_on_parcel: 'no_parcel',
    });
    expect(ask(engine, -90, 30, ['parcel_id']).null_reasons).toEqual({ parcel_id: 'no_coverage' });
    const partial = new Engine();
    partial.load(engine.layer('usfws_nwi')!);
    expect(ask(partial, -96.995, 30.005, ['wetland_acres_on_parcel', 'developable_acres_proxy'], match).null_reasons).toEqual({
      developable_acres_proxy: 'no_coverage',
    });
  });
});

describe('every null says why', () => {
  it('each reason of NULL_REASONS is produced by some field in these situations', () => {
    const engine = new Engine();
    engine.load(buildVectorLayer('usfws_nwi', 'nwi', [feature(boxPolygon([-97, 30, -96.99, 30.01]))]));
    engine.load(buildVectorLayer('hifld_substations', 'subs', [feature(point(-97, 30), {})]));
    engine.load(buildVectorLayer('osm_roads', 'roads', []));
    engine.load(buildVectorLayer('usda_nass_cdl', 'cdl', [feature(boxPolygon([-180, -90, 180, 90]), { crop_class: 'Corn' })]));
    engine.load(buildVectorLayer('eia_861_retail_sales', 'eia', []));
    const grid = { width: 3, height: 3, bbox: [-97.003, 29.997, -96.997, 30.003] as const, noData: -1, values: Float64Array.from([5, 5, 5, 5, -1, 5, 5, 5, 5]) };
    engine.load(buildGridLayer('usgs_3dep', 'dem', grid));
    const seen = new Set<NullReason>();
    const collect = (lon: number, lat: number, fields: string[], parcels?: (ParcelMatch | null)[]) => {
      const answer = engine.evaluate([{ lon, lat }], fields, parcels ? { parcels } : {});
      answer.fields.forEach((_, f) => {
        const reason = answer.reason(0, f);
        if (reason) seen.add(reason);
      });
    };
    collect(-97.5, 30, ['nearest_wetland_distance_m', 'wetland_type', 'nearest_major_road_name', 'nearest_substation_status', 'nearest_power_plant_name', 'grid_price_usd_per_mwh', 'elevation', 'parcel_id']);
    collect(-97, 30, ['elevation', 'aspect_degrees']); // the nodata centre
    collect(-97.002, 29.998, ['aspect_degrees'], []); // flat: every usable neighbour is 5
    collect(-79.38, 43.65, ['cdl_class', 'parcel_id'], [null]);
    collect(-97.001, 30.0, ['nearest_substation_max_voltage_kv']);
    expect([...seen].sort()).toEqual([...NULL_REASONS].sort());
  });
});
