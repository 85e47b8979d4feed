/**
 * The buy box bench:discovery ranks its market with (5 must rules, 10 weighted preferences), as a
 * draft; `salt` moves the acres floor so each query is a spec never ranked before.
 */
export const discoveryBenchDraft = (market: string, salt = 0) => ({
  markets: [market],
  must: [
    { field: 'acres', op: '>=', value: 10 + salt / 1000 },
    { field: 'within_floodplain_polygon', op: '=', value: false, unknown: 'review' },
    { field: 'slope_degrees', op: '<=', value: 12 },
    { field: 'zoning', op: 'in', value: ['industrial', 'agricultural', 'commercial', 'planned_development'] },
    { field: 'nearest_transmission_line_distance_m', op: '<=', value: 20000, unknown: 'review' },
  ],
  preferred: [
    { field: 'nearest_substation_distance_m', op: '<=', value: 3000, weight: 5 },
    { field: 'nearest_substation_max_voltage_kv', op: '>=', value: 138, weight: 3 },
    { field: 'nearest_gas_pipeline_distance_m', op: '<=', value: 5000, weight: 2 },
    { field: 'acres', op: 'between', value: [100, 2000], weight: 3 },
    { field: 'in_opportunity_zone', op: '=', value: true, weight: 1 },
    { field: 'fiber_provider_count', op: '>=', value: 2, weight: 2 },
    { field: 'intersects_wetland', op: '=', value: false, weight: 2 },
    { field: 'tree_canopy_pct', op: '<', value: 30, weight: 1 },
    { field: 'housing_units_within_1km', op: '<', value: 50, weight: 2 },
    { field: 'assessed_value_usd', op: '<', value: 2_000_000, weight: 1 },
  ],
  verdict_cutoffs: { pursue: 70, monitor: 40 },
});
