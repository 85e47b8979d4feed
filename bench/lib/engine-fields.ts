// The 50 catalog fields and the random points `npm run bench:engine` asks the engine for, shared
// with the profiling driver (engine-profile.ts).

export const BENCH_FIELDS = [
  'elevation', 'slope_degrees', 'aspect_degrees', 'aspect_cardinal',
  'within_floodplain_polygon', 'intersects_wetland', 'wetland_type', 'wetland_acres', 'nearest_wetland_distance_m',
  'wetlands_within_100m_count', 'wetlands_within_500m_count', 'huc_12_name',
  'nearest_substation_distance_m', 'nearest_substation_max_voltage_kv', 'nearest_substation_status',
  'substations_within_radius_count', 'substations_radius_m',
  'nearest_transmission_line_distance_m', 'nearest_transmission_line_voltage_kv', 'nearest_transmission_line_voltage_basis',
  'max_transmission_line_voltage_kv_within_radius', 'max_transmission_line_voltage_class_within_radius', 'transmission_lines_within_radius_count',
  'nearest_power_plant_name', 'nearest_power_plant_distance_m', 'nearest_power_plant_capacity_mw',
  'avg_retail_electricity_price_industrial_usd_per_kwh', 'grid_price_usd_per_mwh', 'modeled_onsite_gas_generation_cost_usd_per_mwh',
  'nearest_rail_line_distance_m', 'nearest_long_haul_rail_corridor_distance_m',
  'nearest_dam_distance_m', 'high_hazard_dams_within_10km',
  'nearest_gas_pipeline_distance_m', 'gas_pipelines_within_radius_count', 'nearest_interstate_gas_pipeline_distance_m',
  'antenna_structures_within_500m_count', 'antenna_structures_within_2km_count',
  'tract_geoid', 'political_county', 'intersects_conservation_easement', 'easement_acres', 'intersects_protected_area',
  'housing_units_within_1km', 'cdl_class', 'is_cultivated', 'nearest_brownfield_distance_m', 'brownfields_within_radius_count',
  'egrid_subregion', 'ghi_annual_kwh_m2_day',
];

/** mulberry32: the same points on every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Location = { lon: number; lat: number };

export function randomPoints(n: number, [west, south, east, north]: number[], seed: number): Location[] {
  const random = prng(seed);
  return Array.from({ length: n }, () => ({ lon: west + random() * (east - west), lat: south + random() * (north - south) }));
}
