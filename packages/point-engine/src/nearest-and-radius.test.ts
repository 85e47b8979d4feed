// Nearest-feature, count, sum and max evaluators on hand-built points and lines around
// (-97, 30). Hand figures: at 30°N one degree of latitude is ky = 110,852.4 m and one degree of
// longitude kx = 96,486.3 m (WGS84 radii of curvature: ky = πM/180, kx = πN·cos φ/180).

import { describe, expect, it } from 'vitest';
import { Engine, buildVectorLayer } from './engine.js';
import { feature, line, point } from './testing/shapes.js';

const KX = 96_486.3;
const KY = 110_852.4;

function ask(engine: Engine, lon: number, lat: number, fields: string[]) {
  const answer = engine.evaluate([{ lon, lat }], fields);
  return answer.record(0);
}

describe('substations (points): nearest, attributes, count and radius', () => {
  const engine = new Engine();
  engine.load(
    buildVectorLayer('hifld_substations', 'subs-1', [
      feature(point(-97, 30), { name: 'Alpha', max_voltage_kv: 138, status: 'IN SERVICE' }),
      feature(point(-97.05, 30), { name: 'Beta', max_voltage_kv: -999999, status: 'NOT AVAILABLE' }),
    ]),
  );
  const fields = [
    'nearest_substation_distance_m',
    'nearest_substation_max_voltage_kv',
    'nearest_substation_status',
    'substations_within_radius_count',
    'substations_radius_m',
  ];

  it('puts a point 0.01° north of a substation 1,112 m away (±0.5 %), with its attributes', () => {
    const { values, provenance } = ask(engine, -97, 30.01, fields);
    expect(values.nearest_substation_distance_m).toBeGreaterThan(1112 * 0.995);
    expect(values.nearest_substation_distance_m).toBeLessThan(1112 * 1.005);
    expect(values.nearest_substation_distance_m).toBeCloseTo(0.01 * KY, 0);
    expect(values.nearest_substation_max_voltage_kv).toBe(138);
    expect(values.nearest_substation_status).toBe('IN SERVICE');
    // Beta: 0.05° east and 0.01° south, about 4.95 km: inside the 10 km radius.
    expect(values.substations_within_radius_count).toBe(2);
    expect(values.substations_radius_m).toBe(10_000);
    expect(provenance.nearest_substation_distance_m).toEqual({
      layers: [{ source: 'hifld_substations', layer_version: 'subs-1' }],
      formula_version: null,
    });
  });

  it('reads HIFLD unknowns (-999999, NOT AVAILABLE) as not published', () => {
    const { values, null_reasons } = ask(engine, -97.05, 30.0001, fields);
    expect(values.nearest_substation_distance_m).toBeCloseTo(0.0001 * KY, 1);
    expect(null_reasons).toEqual({ nearest_substation_max_voltage_kv: 'not_published', nearest_substation_status: 'not_published' });
  });

  it('counts 0 (not null) when the index exists and the radius is empty', () => {
    const { values, null_reasons } = ask(engine, -96, 31, ['substations_within_radius_count', 'substations_radius_m']);
    expect(values).toEqual({ substations_within_radius_count: 0, substations_radius_m: 10_000 });
    expect(null_reasons).toEqual({});
  });

  it('answers no_coverage for every field, nullable or not, when no layer of the source is loaded', () => {
    const { values, null_reasons } = ask(new Engine(), -97, 30, [...fields, 'nearest_power_plant_distance_m']);
    expect(Object.values(values).every((value) => value === null)).toBe(true);
    expect(new Set(Object.values(null_reasons))).toEqual(new Set(['no_coverage']));
    expect(Object.keys(null_reasons)).toHaveLength(fields.length + 1);
  });
});

describe('transmission lines: distance to the nearest point of a line, voltage and maxima within the radius', () => {
  const engine = new Engine();
  engine.load(
    buildVectorLayer('hifld_transmission_lines', 'tx-1', [
      feature(line([-97.02, 29.9], [-97.02, 30.1]), { voltage_kv: 345, voltage_class: '345', status: 'IN SERVICE', owner: 'Oncor' }),
      feature(line([-97.03, 29.9], [-97.03, 30.1]), { voltage_kv: -999999, voltage_class: '100-161', status: 'IN SERVICE', owner: 'AEP' }),
      feature(line([-96.9, 29.9], [-96.9, 30.1]), { voltage_kv: 'NOT AVAILABLE', voltage_class: 'NOT AVAILABLE', owner: 'Coop' }),
    ]),
  );
  const fields = [
    'nearest_transmission_line_distance_m',
    'nearest_transmission_line_voltage_kv',
    'nearest_transmission_line_voltage_class',
    'nearest_transmission_line_voltage_basis',
    'nearest_transmission_line_owner',
    'max_transmission_line_voltage_kv_within_radius',
    'max_transmission_line_voltage_class_within_radius',
    'transmission_lines_within_radius_count',
  ];

  it('measures to the segment, not a vertex, and ranks voltages within 10 km', () => {
    const { values } = ask(engine, -97.021, 30, fields);
    expect(values).toMatchObject({
      nearest_transmission_line_voltage_kv: 345,
      nearest_transmission_line_voltage_class: '345',
      nearest_transmission_line_voltage_basis: 'numeric',
      nearest_transmission_line_owner: 'Oncor',
      max_transmission_line_voltage_kv_within_radius: 345,
      max_transmission_line_voltage_class_within_radius: '345',
      // The -96.9 line is 0.121° (11.7 km) away.
      transmission_lines_within_radius_count: 2,
    });
    expect(values.nearest_transmission_line_distance_m).toBeCloseTo(0.001 * KX, 1);
  });

  it('says class_band when only the class is published, not_published when neither is', () => {
    expect(ask(engine, -97.0301, 30, fields).values).toMatchObject({
      nearest_transmission_line_voltage_kv: null,
      nearest_transmission_line_voltage_class: '100-161',
      nearest_transmission_line_voltage_basis: 'class_band',
    });
    const onLine = ask(engine, -96.9, 30.05, fields);
    expect(onLine.values).toMatchObject({
      nearest_transmission_line_distance_m: 0,
      nearest_transmission_line_voltage_basis: 'not_published',
      transmission_lines_within_radius_count: 1,
      max_transmission_line_voltage_kv_within_radius: null,
    });
    expect(onLine.null_reasons.max_transmission_line_voltage_kv_within_radius).toBe('not_published');
  });

  it('measures beyond the end of a line to its end point', () => {
    // 0.01° north of the end (-97.02, 30.1) and nothing nearer.
    expect(ask(engine, -97.02, 30.11, fields).values.nearest_transmission_line_distance_m).toBeCloseTo(0.01 * 110_852.6, 0);
  });

  it('answers none_within_radius for maxima and 0 for the count past every line', () => {
    const far = ask(engine, -96.5, 30, fields);
    expect(far.values.transmission_lines_within_radius_count).toBe(0);
    expect(far.null_reasons.max_transmission_line_voltage_kv_within_radius).toBe('none_within_radius');
    expect(far.null_reasons.max_transmission_line_voltage_class_within_radius).toBe('none_within_radius');
    // Unbounded nearest: 0.4° of longitude, about 38.6 km (Vincenty beyond 20 km).
    expect(far.values.nearest_transmission_line_distance_m).toBeCloseTo(0.4 * KX, -1);
  });
});

describe('search-limited distances (general rule 2)', () => {
  it('nearest_rail_line_distance_m: a value within 5 km, null none_within_radius past it', () => {
    const engine = new Engine();
    engine.load(buildVectorLayer('bts_ntad_rail', 'rail-1', [feature(line([-97, 29.9], [-97, 30.1]), { long_haul: 'false' })]));
    const fields = ['nearest_rail_line_distance_m', 'nearest_long_haul_rail_corridor_distance_m'];
    const near = ask(engine, -97.05, 30, fields);
    expect(near.values.nearest_rail_line_distance_m).toBeCloseTo(0.05 * KX, 0); // 4,824 m
    // The only line is not long-haul: the filtered search finds nothing at all.
    expect(near.null_reasons.nearest_long_haul_rail_corridor_distance_m).toBe('none_found');
    const far = ask(engine, -97.06, 30, fields); // 5,789 m
    expect(far.values.nearest_rail_line_distance_m).toBeNull();
    expect(far.null_reasons.nearest_rail_line_distance_m).toBe('none_within_radius');
  });

  it('nearest_dam_distance_m and its hazard within 10 km; high-hazard dams counted, 0 past 10 km', () => {
    const engine = new Engine();
    engine.load(
      buildVectorLayer('usace_nid', 'nid-1', [
        feature(point(-97, 30), { hazard_potential: 'High' }),
        feature(point(-97.3, 30), { hazard_potential: 'Low' }),
      ]),
    );
    const fields = ['nearest_dam_distance_m', 'nearest_dam_hazard_potential', 'high_hazard_dams_within_10km'];
    const near = ask(engine, -97, 30.08, fields); // 8,868 m
    expect(near.values.nearest_dam_distance_m).toBeCloseTo(0.08 * 110_856.7, 0);
    expect(near.values.nearest_dam_hazard_potential).toBe('High');
    expect(near.values.high_hazard_dams_within_10km).toBe(1);
    const far = ask(engine, -97, 30.1, fields); // 11,085 m
    expect(far.values).toEqual({ nearest_dam_distance_m: null, nearest_dam_hazard_potential: null, high_hazard_dams_within_10km: 0 });
    expect(far.null_reasons).toEqual({ nearest_dam_distance_m: 'none_within_radius', nearest_dam_hazard_potential: 'none_within_radius' });
  });
});

describe('sums within a radius', () => {
  it('housing units within 1 km and their density per km² of the disc', () => {
    const engine = new Engine();
    engine.load(
      buildVectorLayer('census_housing_units', 'hu-1', [
        feature(point(-97, 30.0045), { housing_units: 10 }), // 499 m north
        feature(point(-97, 30.0135), { housing_units: 5 }), // 1,497 m north
      ]),
    );
    const { values } = ask(engine, -97, 30, ['housing_units_within_1km', 'housing_units_density_per_km2']);
    expect(values.housing_units_within_1km).toBe(10);
    expect(values.housing_units_density_per_km2).toBeCloseTo(10 / Math.PI, 6);
  });
});

describe('filters and radius fields of service parameters', () => {
  it('interstate pipelines filter on pipeline_type whatever its case; pipelines_radius_m is always answered', () => {
    const engine = new Engine();
    engine.load(
      buildVectorLayer('eia_gas_pipelines', 'gas-1', [
        feature(line([-97.01, 29.9], [-97.01, 30.1]), { operator: 'Local Gas', pipeline_type: 'Intrastate' }),
        feature(line([-97.03, 29.9], [-97.03, 30.1]), { operator: 'Big Pipe', pipeline_type: 'INTERSTATE' }),
      ]),
    );
    const { values } = ask(engine, -97, 30, [
      'nearest_gas_pipeline_operator',
      'nearest_interstate_gas_pipeline_operator',
      'nearest_interstate_gas_pipeline_distance_m',
      'gas_pipelines_within_radius_count',
      'petroleum_pipelines_within_radius_count',
      'pipelines_radius_m',
    ]);
    expect(values.nearest_gas_pipeline_operator).toBe('Local Gas');
    expect(values.nearest_interstate_gas_pipeline_operator).toBe('Big Pipe');
    expect(values.nearest_interstate_gas_pipeline_distance_m).toBeCloseTo(0.03 * KX, 0);
    expect(values.gas_pipelines_within_radius_count).toBe(2);
    expect(values.petroleum_pipelines_within_radius_count).toBeNull();
    expect(values.pipelines_radius_m).toBe(10_000);
  });
});
