// Spec: "#### Layer hazards".

import type { FeatureFilter } from '../field-evaluator.js';
import { SEARCH_RADII_M } from '../layer-sources.js';
import { layerFields, type FieldRecord } from '../field-record.js';
import {
  conusOnly,
  countUnavailable,
  noneFound,
  noneOrUnnamed,
  noneWithin,
  notInside,
  outsideCoverage,
} from '../null-meanings.js';

const f = layerFields('hazards');

/** The spec's search limit of nearest_dam_distance_m (general rule 2), shared by the dam fields. */
const DAM_SEARCH_M = 10_000;
const NONATTAINMENT: FeatureFilter = { property: 'area_status', oneOf: ['nonattainment'] };
const MAINTENANCE: FeatureFilter = { property: 'area_status', oneOf: ['maintenance'] };

const NO_DAM = noneWithin('dam', '10 km', 'dam');
const NRI_NULL = outsideCoverage('natural hazard');
const NO_NONATTAINMENT = notInside('a nonattainment area', 'air quality');
const NO_MAINTENANCE = notInside('a maintenance area', 'air quality');
const NO_CLASS_I = noneFound('Class I area', 'Class I area');

export const HAZARDS_FIELDS: readonly FieldRecord[] = [
  f('seismic_design_category', 'string', '-', 'Y', 'Y', 'nh', {
    description: "Seismic design category at the point, from A (lowest) to F (highest), for the source's reference site class and risk category.",
    hints: 'D and above call for special seismic detailing of structures.',
    null_meaning: outsideCoverage('seismic design'),
    source: 'usgs_seismic_design_maps',
    evaluator: { kind: 'containing_attribute', source: 'usgs_seismic_design_maps', property: 'design_category' },
    enum: ['A', 'B', 'C', 'D', 'E', 'F'],
  }),
  f('seismic_pga_2pct_50yr_g', 'float', 'g', 'Y', 'Y', 'nh', {
    description: 'Peak ground acceleration with a 2% chance of being exceeded in 50 years, in g.',
    null_meaning: outsideCoverage('seismic hazard'),
    source: 'usgs_nshm',
    evaluator: { kind: 'grid_value', source: 'usgs_nshm' },
  }),
  f('design_wind_speed_mph', 'float', 'mph', 'Y', 'Y', 'nh', {
    description: 'Basic design wind speed (3-second gust) at the point from the building-code wind maps, in mph.',
    null_meaning: outsideCoverage('design wind speed'),
    source: 'asce_hazard_tool',
    evaluator: { kind: 'containing_attribute', source: 'asce_hazard_tool', property: 'design_wind_speed_mph' },
  }),
  f('wildfire_annual_frequency', 'float', '-', 'Y', 'M', 'nh', {
    description: "Expected number of wildfire events per year for the point's area.",
    null_meaning: NRI_NULL,
    source: 'fema_nri',
    evaluator: { kind: 'containing_attribute', source: 'fema_nri', property: 'wildfire_frequency' },
  }),
  f('tornado_annual_frequency', 'float', '-', 'Y', 'M', 'nh', {
    description: "Expected number of tornado events per year for the point's area.",
    null_meaning: NRI_NULL,
    source: 'fema_nri',
    evaluator: { kind: 'containing_attribute', source: 'fema_nri', property: 'tornado_frequency' },
  }),
  f('hail_annual_frequency', 'float', '-', 'Y', 'M', 'nh', {
    description: "Expected number of hail events per year for the point's area.",
    hints: 'Hail is the leading cause of damage claims on PV arrays.',
    null_meaning: NRI_NULL,
    source: 'fema_nri',
    evaluator: { kind: 'containing_attribute', source: 'fema_nri', property: 'hail_frequency' },
  }),
  f('lightning_annual_flash_days', 'float', 'days', 'Y', 'M', 'nh', {
    description: "Average number of days a year with lightning flashes in the point's area.",
    null_meaning: NRI_NULL,
    source: 'fema_nri',
    evaluator: { kind: 'containing_attribute', source: 'fema_nri', property: 'lightning_flash_days' },
  }),
  f('landslide_susceptibility_index', 'int', '-', 'Y', 'Y', 'nh', {
    description: 'Landslide susceptibility index at the point, higher meaning more susceptible; CONUS only.',
    null_meaning: conusOnly('landslide susceptibility'),
    source: 'usgs_landslide_susceptibility',
    evaluator: { kind: 'grid_value', source: 'usgs_landslide_susceptibility', round: 'integer', conusOnly: true },
  }),
  f('nearest_dam_distance_m', 'float', 'm', 'Y', 'M', 'dc,nh', {
    description: 'Distance to the nearest dam in the National Inventory of Dams, searched within 10 km of the point, in meters.',
    null_meaning: NO_DAM,
    source: 'usace_nid',
    evaluator: { kind: 'nearest_distance', source: 'usace_nid', maxDistanceM: DAM_SEARCH_M },
  }),
  f('nearest_dam_hazard_potential', 'str', '-', 'Y', 'M', 'dc,nh', {
    description: 'Hazard potential classification of the nearest dam within 10 km of the point.',
    hints: 'Rates the consequences of a failure, not the condition of the dam.',
    null_meaning: NO_DAM,
    source: 'usace_nid',
    evaluator: { kind: 'nearest_attribute', source: 'usace_nid', property: 'hazard_potential', maxDistanceM: DAM_SEARCH_M },
    enum: ['High', 'Significant', 'Low', 'Undetermined'],
  }),
  f('high_hazard_dams_within_10km', 'int', '-', 'Y', 'M', 'dc,nh', {
    description: 'Number of dams with High hazard potential within 10 km of the point.',
    hints: '0 when none lies within 10 km.',
    null_meaning: countUnavailable('dam'),
    source: 'usace_nid',
    evaluator: { kind: 'count_within', source: 'usace_nid', radiusM: DAM_SEARCH_M, filter: { property: 'hazard_potential', oneOf: ['High'] } },
  }),
  f('nearest_hazardous_facility_distance_m', 'float', 'm', 'Y', 'M', 'dc', {
    description: 'Distance to the nearest facility registered for handling hazardous substances, in meters.',
    null_meaning: noneFound('hazardous facility', 'hazardous facility'),
    source: 'epa_frs',
    evaluator: { kind: 'nearest_distance', source: 'epa_frs' },
  }),
  f('nearest_hazardous_facility_name', 'str', '-', 'Y', 'M', 'dc', {
    description: 'Name of the nearest facility registered for handling hazardous substances.',
    null_meaning: noneOrUnnamed('hazardous facility', 'hazardous facility'),
    source: 'epa_frs',
    evaluator: { kind: 'nearest_attribute', source: 'epa_frs', property: 'name' },
  }),
  f('housing_units_within_1km', 'int', '-', 'Y', 'Y', 'sit,sol,wnd,dc', {
    description: 'Number of housing units within 1 km of the point.',
    hints: 'A proxy for neighbours who may object to a project; 0 when none.',
    null_meaning: countUnavailable('housing'),
    source: 'census_housing_units',
    evaluator: { kind: 'sum_within', source: 'census_housing_units', property: 'housing_units', radiusM: 1_000 },
  }),
  f('housing_units_density_per_km2', 'float', 'units/km2', 'Y', 'Y', 'sol,wnd,dc', {
    description: 'Housing units per square kilometer around the point.',
    null_meaning: outsideCoverage('housing'),
    source: 'census_housing_units',
    evaluator: { kind: 'sum_within', source: 'census_housing_units', property: 'housing_units', radiusM: 1_000, perSquareKm: true },
  }),
  f('in_air_quality_nonattainment', 'bool', '-', 'Y', 'M', 'dc', {
    description: 'Whether the point lies in a nonattainment area for any criteria air pollutant.',
    hints: 'Nonattainment tightens permits for on-site generation such as gas turbines and backup diesel.',
    null_meaning: outsideCoverage('air quality'),
    source: 'epa_green_book',
    evaluator: { kind: 'contains', source: 'epa_green_book', filter: NONATTAINMENT },
  }),
  f('air_quality_nonattainment_pollutants', 'string', '-', 'Y', 'M', 'dc', {
    description: 'Criteria pollutants for which the area containing the point is in nonattainment.',
    null_meaning: NO_NONATTAINMENT,
    source: 'epa_green_book',
    evaluator: { kind: 'containing_joined', source: 'epa_green_book', property: 'pollutant', filter: NONATTAINMENT },
  }),
  // The spec orders the classes Extreme > Severe > Serious > Moderate > Marginal and says the
  // value is blank for maintenance-only points, so the blank string is a listed value too.
  f('air_quality_worst_classification', 'string', '-', 'Y', 'M', 'dc', {
    description: 'Worst nonattainment classification among the areas containing the point.',
    hints: 'Ordered worst first: Extreme > Severe > Serious > Moderate > Marginal; blank for points only in a maintenance area.',
    null_meaning: NO_NONATTAINMENT,
    source: 'epa_green_book',
    evaluator: { kind: 'containing_ranked', source: 'epa_green_book', property: 'classification', rank: ['Extreme', 'Severe', 'Serious', 'Moderate', 'Marginal'], filter: NONATTAINMENT, blankWhenOnlyUnfiltered: true },
    enum: ['Extreme', 'Severe', 'Serious', 'Moderate', 'Marginal', ''],
  }),
  f('in_air_quality_maintenance', 'bool', '-', 'Y', 'M', 'dc', {
    description: 'Whether the point lies in a maintenance area (a former nonattainment area) for any criteria air pollutant.',
    null_meaning: outsideCoverage('air quality'),
    source: 'epa_green_book',
    evaluator: { kind: 'contains', source: 'epa_green_book', filter: MAINTENANCE },
  }),
  f('air_quality_maintenance_pollutants', 'string', '-', 'Y', 'M', 'dc', {
    description: 'Criteria pollutants for which the area containing the point is a maintenance area.',
    null_meaning: NO_MAINTENANCE,
    source: 'epa_green_book',
    evaluator: { kind: 'containing_joined', source: 'epa_green_book', property: 'pollutant', filter: MAINTENANCE },
  }),
  f('nearest_brownfield_distance_m', 'float', 'm', 'Y', 'M', 'sit,dc', {
    description: 'Distance to the nearest brownfield site, in meters.',
    null_meaning: noneFound('brownfield site', 'brownfield'),
    source: 'epa_brownfields',
    evaluator: { kind: 'nearest_distance', source: 'epa_brownfields' },
  }),
  f('brownfields_within_radius_count', 'int', '-', 'Y', 'M', 'sit,dc', {
    description: 'Number of brownfield sites within the search radius of the point.',
    hints: '0 when none lies within the radius.',
    null_meaning: countUnavailable('brownfield'),
    source: 'epa_brownfields',
    evaluator: { kind: 'count_within', source: 'epa_brownfields', radiusM: SEARCH_RADII_M.brownfields },
  }),
  f('nearest_superfund_distance_m', 'float', 'm', 'Y', 'M', 'sit,dc', {
    description: 'Distance to the nearest Superfund (National Priorities List) site, in meters.',
    null_meaning: noneFound('Superfund site', 'Superfund'),
    source: 'epa_superfund_npl',
    evaluator: { kind: 'nearest_distance', source: 'epa_superfund_npl' },
  }),
  f('superfund_sites_within_radius_count', 'int', '-', 'Y', 'M', 'sit,dc', {
    description: 'Number of Superfund (National Priorities List) sites within the search radius of the point.',
    hints: '0 when none lies within the radius.',
    null_meaning: countUnavailable('Superfund'),
    source: 'epa_superfund_npl',
    evaluator: { kind: 'count_within', source: 'epa_superfund_npl', radiusM: SEARCH_RADII_M.superfund_sites },
  }),
  f('air_district_name', 'string', '-', 'Y', 'B', 'dc', {
    description: 'Name of the local air pollution control district containing the point.',
    null_meaning: notInside('a mapped air district', 'air district'),
    source: 'state_air_districts',
    evaluator: { kind: 'containing_attribute', source: 'state_air_districts', property: 'name' },
  }),
  f('nearest_class_i_area_distance_m', 'float', 'meters', 'Y', 'M', 'dc', {
    description: 'Distance to the nearest federal Class I area (national parks and wilderness areas with the strictest air-quality protection), in meters.',
    hints: 'New emission sources near a Class I area face stricter permit review.',
    null_meaning: NO_CLASS_I,
    source: 'nps_class_i_areas',
    evaluator: { kind: 'nearest_distance', source: 'nps_class_i_areas' },
  }),
  f('nearest_class_i_area_name', 'str', '-', 'Y', 'M', 'dc', {
    description: 'Name of the nearest federal Class I area.',
    null_meaning: NO_CLASS_I,
    source: 'nps_class_i_areas',
    evaluator: { kind: 'nearest_attribute', source: 'nps_class_i_areas', property: 'name' },
  }),
  f('nearest_class_i_area_agency', 'str', '-', 'Y', 'M', 'dc', {
    description: 'Federal land manager of the nearest Class I area (for example NPS, USFS or FWS).',
    null_meaning: NO_CLASS_I,
    source: 'nps_class_i_areas',
    evaluator: { kind: 'nearest_attribute', source: 'nps_class_i_areas', property: 'agency' },
  }),
];
