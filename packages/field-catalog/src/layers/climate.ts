// Spec: "#### Layer climate". The wind-resource fields come from a CONUS-only model, so they
// say "CONUS only" and are null outside the contiguous United States (general rule 5).

import type { ContainingAttribute } from '../field-evaluator.js';
import { layerFields, type FieldRecord } from '../field-record.js';
import { conusOnly, outsideCoverage } from '../null-meanings.js';

const f = layerFields('climate');

/** A value of the wind-resource cell containing the point; the model covers CONUS only. */
function wind(property: string): ContainingAttribute {
  return { kind: 'containing_attribute', source: 'nrel_wind_toolkit', property, conusOnly: true };
}

const SOLAR_NULL = outsideCoverage('solar resource');
const WIND_NULL = conusOnly('wind resource');
const CLIMATE_NULL = outsideCoverage('climate');

export const CLIMATE_FIELDS: readonly FieldRecord[] = [
  f('ghi_annual_kwh_m2_day', 'float', 'kWh/m2/day', 'Y', 'Y', 'sol', {
    description: 'Long-term mean global horizontal irradiance at the point, in kWh/m2/day.',
    hints: 'The main solar resource figure for fixed and tracking PV.',
    null_meaning: SOLAR_NULL,
    source: 'nrel_nsrdb',
    evaluator: { kind: 'containing_attribute', source: 'nrel_nsrdb', property: 'ghi_kwh_m2_day' },
  }),
  f('dni_annual_kwh_m2_day', 'float', 'kWh/m2/day', 'Y', 'Y', 'sol', {
    description: 'Long-term mean direct normal irradiance at the point, in kWh/m2/day.',
    hints: 'Matters most for trackers and concentrating solar.',
    null_meaning: SOLAR_NULL,
    source: 'nrel_nsrdb',
    evaluator: { kind: 'containing_attribute', source: 'nrel_nsrdb', property: 'dni_kwh_m2_day' },
  }),
  f('pv_capacity_factor_pct', 'float', 'pct', 'Y', 'Y', 'sol', {
    description: 'Modeled annual capacity factor of a reference PV system at the point, in percent.',
    null_meaning: SOLAR_NULL,
    source: 'nrel_pvwatts',
    evaluator: { kind: 'containing_attribute', source: 'nrel_pvwatts', property: 'capacity_factor_pct' },
  }),
  f('pv_specific_yield_kwh_per_kw', 'float', 'kWh/kW', 'Y', 'Y', 'sol', {
    description: 'Modeled annual energy from a reference PV system per kW of installed capacity, in kWh/kW.',
    null_meaning: SOLAR_NULL,
    source: 'nrel_pvwatts',
    evaluator: { kind: 'containing_attribute', source: 'nrel_pvwatts', property: 'specific_yield_kwh_per_kw' },
  }),
  f('optimal_fixed_tilt_degrees', 'float', 'degrees', 'Y', 'Y', 'sol', {
    description: 'Fixed panel tilt that maximises annual PV energy at the point, in degrees from horizontal.',
    null_meaning: SOLAR_NULL,
    source: 'nrel_pvwatts',
    evaluator: { kind: 'containing_attribute', source: 'nrel_pvwatts', property: 'optimal_tilt_degrees' },
  }),
  f('surface_albedo_annual', 'float', '-', 'Y', 'Y', 'sol', {
    description: 'Mean annual surface albedo at the point: the fraction of sunlight the ground reflects, from 0 to 1.',
    hints: 'Higher albedo raises the rear-side gain of bifacial modules.',
    null_meaning: SOLAR_NULL,
    source: 'nrel_nsrdb',
    evaluator: { kind: 'containing_attribute', source: 'nrel_nsrdb', property: 'albedo' },
  }),
  f('mean_wind_speed_100m_ms', 'float', 'm/s', 'Y', 'Y', 'wnd', {
    description: 'Long-term mean wind speed 100 m above ground at the point, in m/s; CONUS only.',
    null_meaning: WIND_NULL,
    source: 'nrel_wind_toolkit',
    evaluator: wind('wind_speed_100m_ms'),
  }),
  f('mean_wind_speed_120m_ms', 'float', 'm/s', 'Y', 'Y', 'wnd', {
    description: 'Long-term mean wind speed 120 m above ground at the point, in m/s; CONUS only.',
    null_meaning: WIND_NULL,
    source: 'nrel_wind_toolkit',
    evaluator: wind('wind_speed_120m_ms'),
  }),
  f('mean_wind_speed_160m_ms', 'float', 'm/s', 'Y', 'Y', 'wnd', {
    description: 'Long-term mean wind speed 160 m above ground at the point, in m/s; CONUS only.',
    null_meaning: WIND_NULL,
    source: 'nrel_wind_toolkit',
    evaluator: wind('wind_speed_160m_ms'),
  }),
  f('wind_power_density_100m_wm2', 'float', 'W/m2', 'Y', 'Y', 'wnd', {
    description: 'Mean wind power density 100 m above ground at the point, in W/m2; CONUS only.',
    null_meaning: WIND_NULL,
    source: 'nrel_wind_toolkit',
    evaluator: wind('power_density_100m_wm2'),
  }),
  f('prevailing_wind_direction_100m_cardinal', 'string', '-', 'Y', 'Y', 'wnd', {
    description: 'Most frequent wind direction 100 m above ground at the point, as a compass direction; CONUS only.',
    hints: 'The direction the wind blows from; turbine rows are laid out across it.',
    null_meaning: WIND_NULL,
    source: 'nrel_wind_toolkit',
    evaluator: wind('prevailing_direction_100m'),
  }),
  f('weibull_k_100m', 'float', '-', 'Y', 'Y', 'wnd', {
    description: 'Weibull shape parameter k of the wind speed distribution 100 m above ground; CONUS only.',
    hints: 'Higher k means steadier winds around the mean.',
    null_meaning: WIND_NULL,
    source: 'nrel_wind_toolkit',
    evaluator: wind('weibull_k_100m'),
  }),
  f('wind_capacity_factor_pct', 'float', 'pct', 'Y', 'Y', 'wnd', {
    description: 'Modeled net capacity factor of a reference wind turbine at the point, in percent; CONUS only.',
    null_meaning: WIND_NULL,
    source: 'nrel_rev_supply_curves',
    evaluator: { kind: 'containing_attribute', source: 'nrel_rev_supply_curves', property: 'wind_capacity_factor_pct', conusOnly: true },
  }),
  f('wind_least_cost_interconnect_distance_m', 'float', 'm', 'Y', 'Y', 'wnd,sto,grd', {
    description: 'Distance from the point to its least-cost grid interconnection point in a wind supply-curve model, in meters; CONUS only.',
    null_meaning: WIND_NULL,
    source: 'nrel_rev_supply_curves',
    evaluator: { kind: 'containing_attribute', source: 'nrel_rev_supply_curves', property: 'interconnect_distance_m', conusOnly: true },
  }),
  f('design_wet_bulb_temperature_0_4pct_degc', 'float', 'degC', 'Y', 'Y', 'dc', {
    description: 'Wet-bulb temperature exceeded 0.4% of the hours of a year (about 35 hours), at the nearest design-conditions station, in degrees Celsius.',
    hints: 'Sizes evaporative and cooling-tower systems for data centers.',
    null_meaning: CLIMATE_NULL,
    source: 'ashrae_design_conditions',
    evaluator: { kind: 'nearest_attribute', source: 'ashrae_design_conditions', property: 'wet_bulb_0_4pct_degc' },
  }),
  f('mean_annual_dry_bulb_temperature_degc', 'float', 'degC', 'Y', 'Y', 'sol,dc', {
    description: 'Mean annual air (dry-bulb) temperature at the point, in degrees Celsius.',
    null_meaning: CLIMATE_NULL,
    source: 'noaa_climate_normals',
    evaluator: { kind: 'containing_attribute', source: 'noaa_climate_normals', property: 'dry_bulb_degc' },
  }),
  f('mean_annual_relative_humidity_pct', 'float', 'pct', 'Y', 'Y', 'dc', {
    description: 'Mean annual relative humidity at the point, in percent.',
    null_meaning: CLIMATE_NULL,
    source: 'noaa_climate_normals',
    evaluator: { kind: 'containing_attribute', source: 'noaa_climate_normals', property: 'relative_humidity_pct' },
  }),
  f('days_above_32c_annual_count', 'int', 'days', 'Y', 'M', 'sol,dc', {
    description: 'Average number of days a year whose maximum temperature exceeds 32 degrees Celsius.',
    hints: 'Heat lowers PV output and raises data-center cooling load.',
    null_meaning: CLIMATE_NULL,
    source: 'noaa_nclimgrid_daily',
    evaluator: { kind: 'grid_value', source: 'noaa_nclimgrid_daily', round: 'integer' },
  }),
  f('mean_annual_snow_cover_days', 'int', 'days', 'Y', 'Y', 'sol', {
    description: 'Average number of days a year with snow on the ground at the point.',
    null_meaning: outsideCoverage('snow cover'),
    source: 'nasa_modis_snow_cover',
    evaluator: { kind: 'grid_value', source: 'nasa_modis_snow_cover', round: 'integer' },
  }),
  f('drought_category', 'string', '-', 'Y', 'W', 'dc', {
    description: 'Current drought category at the point, from D0 (abnormally dry) to D4 (exceptional drought).',
    null_meaning: 'The point is in no drought polygon (no drought), or the drought index is unavailable.',
    source: 'usdm_drought_monitor',
    evaluator: { kind: 'containing_ranked', source: 'usdm_drought_monitor', property: 'category', rank: ['D4', 'D3', 'D2', 'D1', 'D0'] },
    enum: ['D0', 'D1', 'D2', 'D3', 'D4'],
  }),
];
