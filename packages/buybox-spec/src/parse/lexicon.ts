// The words of the common phrasings (D12) and the fields they stand for. Kept as data so that a
// new phrasing is a new row, not new grammar. Every mapping names candidates in order of
// preference; the parser takes the first one the caller's schema knows.

import type { Op } from '../types.js';

/** "within 2 km of a <thing>" → the distance field of the thing (stored in meters). */
export const DISTANCE_FIELDS: Readonly<Record<string, readonly string[]>> = {
  substation: ['nearest_substation_distance_m'],
  'electrical substation': ['nearest_substation_distance_m'],
  'transmission line': ['nearest_transmission_line_distance_m'],
  'power line': ['nearest_transmission_line_distance_m'],
  'high voltage line': ['nearest_transmission_line_distance_m'],
  'gas pipeline': ['nearest_gas_pipeline_distance_m'],
  'natural gas pipeline': ['nearest_gas_pipeline_distance_m'],
  'gas line': ['nearest_gas_pipeline_distance_m'],
  pipeline: ['nearest_gas_pipeline_distance_m'],
  'interstate gas pipeline': ['nearest_interstate_gas_pipeline_distance_m'],
  'gas transmission pipeline': ['nearest_gas_transmission_pipeline_distance_m'],
  'petroleum pipeline': ['nearest_petroleum_pipeline_distance_m'],
  'gas compressor': ['nearest_gas_compressor_distance_m'],
  'compressor station': ['nearest_gas_compressor_distance_m'],
  'gas storage': ['nearest_gas_storage_distance_m'],
  'lng terminal': ['nearest_lng_terminal_distance_m'],
  rail: ['nearest_rail_line_distance_m'],
  railroad: ['nearest_rail_line_distance_m'],
  railway: ['nearest_rail_line_distance_m'],
  'rail line': ['nearest_rail_line_distance_m'],
  'long haul rail corridor': ['nearest_long_haul_rail_corridor_distance_m'],
  road: ['nearest_major_road_distance_m'],
  'major road': ['nearest_major_road_distance_m'],
  highway: ['nearest_major_road_distance_m'],
  interstate: ['nearest_major_road_distance_m'],
  airport: ['nearest_airport_distance_m'],
  'power plant': ['nearest_power_plant_distance_m'],
  'wind turbine': ['nearest_wind_turbine_distance_m'],
  'solar farm': ['nearest_utility_solar_facility_distance_m'],
  'solar facility': ['nearest_utility_solar_facility_distance_m'],
  'utility solar facility': ['nearest_utility_solar_facility_distance_m'],
  'repowering site': ['nearest_repowering_site_distance_m'],
  'proposed generator': ['nearest_proposed_generator_distance_m'],
  coast: ['coast_distance_m'],
  coastline: ['coast_distance_m'],
  shore: ['coast_distance_m'],
  ocean: ['coast_distance_m'],
  wetland: ['nearest_wetland_distance_m'],
  'urban area': ['nearest_urban_area_distance_m'],
  city: ['nearest_urban_area_distance_m'],
  town: ['nearest_urban_area_distance_m'],
  dam: ['nearest_dam_distance_m'],
  brownfield: ['nearest_brownfield_distance_m'],
  'superfund site': ['nearest_superfund_distance_m'],
  superfund: ['nearest_superfund_distance_m'],
  'hazardous facility': ['nearest_hazardous_facility_distance_m'],
  'class i area': ['nearest_class_i_area_distance_m'],
  'antenna structure': ['nearest_antenna_structure_distance_m'],
  antenna: ['nearest_antenna_structure_distance_m'],
  tower: ['nearest_antenna_structure_distance_m'],
  'submarine cable': ['nearest_submarine_cable_distance_m'],
};

/** "(not) in a <area>" → the boolean field that says whether the parcel lies in one. */
export const AREA_FIELDS: Readonly<Record<string, readonly string[]>> = {
  floodplain: ['within_floodplain_polygon'],
  'flood plain': ['within_floodplain_polygon'],
  'flood zone': ['within_floodplain_polygon'],
  'flood hazard area': ['within_floodplain_polygon'],
  '100 year floodplain': ['within_floodplain_polygon'],
  wetland: ['intersects_wetland'],
  'opportunity zone': ['in_opportunity_zone'],
  'conservation easement': ['intersects_conservation_easement'],
  easement: ['intersects_conservation_easement'],
  'protected area': ['intersects_protected_area'],
  'critical habitat': ['intersects_critical_habitat'],
  'shale play': ['in_shale_play'],
  'nonattainment area': ['in_air_quality_nonattainment'],
  'air quality nonattainment area': ['in_air_quality_nonattainment'],
  'maintenance area': ['in_air_quality_maintenance'],
};

/** Everyday names of fields for "<name> under 5 degrees", "<name> is …". */
export const FIELD_ALIASES: Readonly<Record<string, readonly string[]>> = {
  slope: ['slope_degrees'],
  grade: ['slope_degrees'],
  aspect: ['aspect_degrees'],
  elevation: ['elevation'],
  altitude: ['elevation'],
  size: ['acres'],
  area: ['acres'],
  'lot size': ['acres'],
  'parcel size': ['acres'],
  acreage: ['acres'],
  'developable area': ['developable_acres', 'developable_acres_proxy'],
  'developable acreage': ['developable_acres', 'developable_acres_proxy'],
  zoning: ['zoning', 'parcel_zoning'],
  zone: ['zoning', 'parcel_zoning'],
  'land use': ['land_use', 'land_use_class'],
  owner: ['owner_name', 'parcel_owner'],
  'assessed value': ['assessed_value_usd'],
  value: ['assessed_value_usd'],
  price: ['assessed_value_usd'],
  'tree cover': ['tree_canopy_pct'],
  'tree canopy': ['tree_canopy_pct'],
  'wind speed': ['mean_wind_speed_100m_ms'],
  'substation voltage': ['nearest_substation_max_voltage_kv'],
  'transmission voltage': ['nearest_transmission_line_voltage_kv'],
  'line voltage': ['nearest_transmission_line_voltage_kv'],
};

/** "at least 50 acres" with no field named: the field a bare unit of this dimension means. */
export const SIZE_FIELDS: readonly string[] = ['acres'];

/** "zoned industrial" → the zoning field. */
export const ZONING_FIELDS: readonly string[] = ['zoning', 'parcel_zoning'];

/** English comparators, longest first so that "at least" wins over "least". */
export const COMPARATORS: readonly [string, Op][] = [
  ['greater than or equal to', 'gte'],
  ['less than or equal to', 'lte'],
  ['no less than', 'gte'],
  ['not less than', 'gte'],
  ['no more than', 'lte'],
  ['not more than', 'lte'],
  ['no greater than', 'lte'],
  ['no smaller than', 'gte'],
  ['a minimum of', 'gte'],
  ['a maximum of', 'lte'],
  ['minimum of', 'gte'],
  ['maximum of', 'lte'],
  ['greater than', 'gt'],
  ['larger than', 'gt'],
  ['bigger than', 'gt'],
  ['higher than', 'gt'],
  ['more than', 'gt'],
  ['farther than', 'gt'],
  ['further than', 'gt'],
  ['less than', 'lt'],
  ['fewer than', 'lt'],
  ['smaller than', 'lt'],
  ['lower than', 'lt'],
  ['closer than', 'lt'],
  ['at least', 'gte'],
  ['at most', 'lte'],
  ['minimum', 'gte'],
  ['maximum', 'lte'],
  ['min', 'gte'],
  ['max', 'lte'],
  ['up to', 'lte'],
  ['exceeding', 'gt'],
  ['above', 'gt'],
  ['over', 'gt'],
  ['under', 'lt'],
  ['below', 'lt'],
  ['within', 'lte'],
];

/** Regex alternation of the comparators, for the phrasing patterns. */
export const COMPARATOR_PATTERN = COMPARATORS.map(([words]) => words.replace(/ /g, '\\s+')).join('|');

export function comparatorOp(words: string): Op | null {
  const key = words.toLowerCase().replace(/\s+/g, ' ');
  return COMPARATORS.find(([phrase]) => phrase === key)?.[1] ?? null;
}

/** The opposite test, for "must not: …" lines. `between` has none that is a single rule. */
export const NEGATED: Readonly<Partial<Record<Op, Op>>> = {
  eq: 'ne',
  ne: 'eq',
  lt: 'gte',
  gte: 'lt',
  gt: 'lte',
  lte: 'gt',
  in: 'not_in',
  not_in: 'in',
};
