// Spec: "#### Layer utilities". The spec's "Catalog coverage" says fields later than
// interconnection_queue_active_capacity_spp_mw are "not shown", yet its table goes on to list
// more; every listed row is here (D33: every field the spec lists), and nothing is invented.

import type { ContainingAttribute, FeatureFilter } from '../field-evaluator.js';
import { SEARCH_RADII_M } from '../layer-sources.js';
import { layerFields, type FieldRecord } from '../field-record.js';
import {
  conusOnly,
  countUnavailable,
  derivedFrom,
  noneFound,
  noneOrNotPublished,
  noneOrUnnamed,
  noneWithin,
  notInside,
  outsideCoverage,
} from '../null-meanings.js';

const f = layerFields('utilities');

const TRANSMISSION_RADIUS_M = SEARCH_RADII_M.transmission_lines;
const SUBSTATIONS_RADIUS_M = SEARCH_RADII_M.substations;
const PIPELINES_RADIUS_M = SEARCH_RADII_M.pipelines;
const INTERSTATE: FeatureFilter = { property: 'pipeline_type', oneOf: ['interstate'] };
const GAS_TRANSMISSION: FeatureFilter = { property: 'pipeline_type', oneOf: ['interstate', 'intrastate'] };

/** Active queue capacity of the containing county polygon or ISO/RTO footprint. */
function queueCapacity(property: 'area_kind' | 'iso', value: string): ContainingAttribute {
  return {
    kind: 'containing_attribute',
    source: 'lbnl_queued_up',
    property: 'active_capacity_mw',
    filter: { property, oneOf: [value] },
  };
}

const NO_SUBSTATION = noneFound('substation', 'substation');
const NO_GAS_PIPELINE = noneFound('natural gas pipeline', 'gas pipeline');
const QUEUE_HINT = 'Counts active (not withdrawn, not operating) requests only.';

export const UTILITIES_FIELDS: readonly FieldRecord[] = [
  f('nearest_power_plant_name', 'string', '-', 'N', 'D', 'utl', {
    description: 'Name of the nearest operating power plant.',
    source: 'eia_860_power_plants',
    evaluator: { kind: 'nearest_attribute', source: 'eia_860_power_plants', property: 'name' },
  }),
  f('nearest_power_plant_distance_m', 'float', 'meters', 'N', 'D', 'utl,sto,grd', {
    description: 'Distance to the nearest operating power plant, in meters.',
    source: 'eia_860_power_plants',
    evaluator: { kind: 'nearest_distance', source: 'eia_860_power_plants' },
  }),
  f('nearest_power_plant_primary_fuel', 'string', '-', 'N', 'D', 'utl', {
    description: 'Primary energy source of the nearest power plant (for example natural gas, solar or wind).',
    source: 'eia_860_power_plants',
    evaluator: { kind: 'nearest_attribute', source: 'eia_860_power_plants', property: 'primary_fuel' },
  }),
  f('nearest_power_plant_capacity_mw', 'float', 'megawatts', 'N', 'D', 'utl,grd', {
    description: 'Nameplate capacity of the nearest power plant, in megawatts.',
    source: 'eia_860_power_plants',
    evaluator: { kind: 'nearest_attribute', source: 'eia_860_power_plants', property: 'capacity_mw' },
  }),
  f('nearest_transmission_line_distance_m', 'float', 'meters', 'N', 'D', 'sit,utl,sto,grd', {
    description: 'Distance to the nearest mapped electric transmission line, in meters.',
    source: 'hifld_transmission_lines',
    evaluator: { kind: 'nearest_distance', source: 'hifld_transmission_lines' },
  }),
  f('nearest_transmission_line_voltage_kv', 'float', 'kilovolts', 'N', 'D', 'sit,utl', {
    description: 'Voltage of the nearest transmission line, in kilovolts.',
    hints: 'Read with nearest_transmission_line_voltage_basis, which says whether the owner published a figure or only a class band.',
    source: 'hifld_transmission_lines',
    evaluator: { kind: 'nearest_attribute', source: 'hifld_transmission_lines', property: 'voltage_kv' },
  }),
  f('nearest_transmission_line_voltage_class', 'string', '-', 'N', 'D', 'sit,utl', {
    description: 'Published voltage class band of the nearest transmission line (for example "100-161" or "345").',
    source: 'hifld_transmission_lines',
    evaluator: { kind: 'nearest_attribute', source: 'hifld_transmission_lines', property: 'voltage_class' },
  }),
  f('nearest_transmission_line_voltage_basis', 'string', '-', 'N', 'D', 'sit,utl', {
    description: 'How the voltage of the nearest transmission line is known: a published figure, a class band only, or not published.',
    source: 'hifld_transmission_lines',
    evaluator: { kind: 'voltage_basis', source: 'hifld_transmission_lines', numberProperty: 'voltage_kv', classProperty: 'voltage_class' },
    enum: ['numeric', 'class_band', 'not_published'],
  }),
  // The spec's enumeration adds "or null" while its field table marks the field not nullable;
  // the table's nullability is kept, and null is left out of the value set.
  f('nearest_transmission_line_status', 'string', '-', 'N', 'D', 'utl', {
    description: 'Operating status of the nearest transmission line.',
    source: 'hifld_transmission_lines',
    evaluator: { kind: 'nearest_attribute', source: 'hifld_transmission_lines', property: 'status' },
    enum: ['IN SERVICE', 'UNDER CONSTRUCTION', 'INACTIVE'],
  }),
  f('nearest_transmission_line_owner', 'string', '-', 'N', 'D', 'utl', {
    description: 'Owner of the nearest transmission line, as published.',
    source: 'hifld_transmission_lines',
    evaluator: { kind: 'nearest_attribute', source: 'hifld_transmission_lines', property: 'owner' },
  }),
  f('max_transmission_line_voltage_kv_within_radius', 'float', 'kilovolts', 'N', 'D', 'sit,utl', {
    description: 'Highest voltage among the transmission lines within the transmission search radius of the point, in kilovolts.',
    source: 'hifld_transmission_lines',
    evaluator: { kind: 'max_within', source: 'hifld_transmission_lines', property: 'voltage_kv', radiusM: TRANSMISSION_RADIUS_M, rank: 'number' },
  }),
  f('max_transmission_line_voltage_class_within_radius', 'string', '-', 'N', 'D', 'sit,utl', {
    description: 'Highest voltage class band among the transmission lines within the transmission search radius of the point.',
    source: 'hifld_transmission_lines',
    evaluator: { kind: 'max_within', source: 'hifld_transmission_lines', property: 'voltage_class', radiusM: TRANSMISSION_RADIUS_M, rank: 'voltage_class' },
  }),
  f('transmission_lines_within_radius_count', 'int', '-', 'N', 'D', 'sit,utl,dc,grd', {
    description: 'Number of transmission lines within the transmission search radius of the point.',
    hints: '0 when no line lies within the radius.',
    source: 'hifld_transmission_lines',
    evaluator: { kind: 'count_within', source: 'hifld_transmission_lines', radiusM: TRANSMISSION_RADIUS_M },
  }),
  f('nearest_gas_pipeline_distance_m', 'float', 'meters', 'N', 'D', 'utl,dc', {
    description: 'Distance to the nearest natural gas pipeline, in meters.',
    source: 'eia_gas_pipelines',
    evaluator: { kind: 'nearest_distance', source: 'eia_gas_pipelines' },
  }),
  f('nearest_gas_pipeline_operator', 'string', '-', 'N', 'D', '-', {
    description: 'Operator of the nearest natural gas pipeline.',
    source: 'eia_gas_pipelines',
    evaluator: { kind: 'nearest_attribute', source: 'eia_gas_pipelines', property: 'operator' },
  }),
  f('nearest_gas_pipeline_type', 'string', '-', 'N', 'D', '-', {
    description: 'Type of the nearest natural gas pipeline (for example interstate or intrastate).',
    source: 'eia_gas_pipelines',
    evaluator: { kind: 'nearest_attribute', source: 'eia_gas_pipelines', property: 'pipeline_type' },
  }),
  f('gas_pipelines_within_radius_count', 'int', '-', 'N', 'D', '-', {
    description: 'Number of natural gas pipelines within pipelines_radius_m of the point.',
    hints: '0 when no pipeline lies within the radius.',
    source: 'eia_gas_pipelines',
    evaluator: { kind: 'count_within', source: 'eia_gas_pipelines', radiusM: PIPELINES_RADIUS_M },
  }),
  f('nearest_petroleum_pipeline_distance_m', 'float', 'meters', 'N', 'D', '-', {
    description: 'Distance to the nearest petroleum (crude oil, product or HGL) pipeline, in meters.',
    source: 'eia_petroleum_pipelines',
    evaluator: { kind: 'nearest_distance', source: 'eia_petroleum_pipelines' },
  }),
  f('nearest_petroleum_pipeline_operator', 'string', '-', 'N', 'D', '-', {
    description: 'Operator of the nearest petroleum pipeline.',
    source: 'eia_petroleum_pipelines',
    evaluator: { kind: 'nearest_attribute', source: 'eia_petroleum_pipelines', property: 'operator' },
  }),
  f('nearest_petroleum_pipeline_product', 'string', '-', 'N', 'D', '-', {
    description: 'Product carried by the nearest petroleum pipeline (for example crude oil or refined products).',
    source: 'eia_petroleum_pipelines',
    evaluator: { kind: 'nearest_attribute', source: 'eia_petroleum_pipelines', property: 'product' },
  }),
  f('petroleum_pipelines_within_radius_count', 'int', '-', 'N', 'D', '-', {
    description: 'Number of petroleum pipelines within pipelines_radius_m of the point.',
    hints: '0 when no pipeline lies within the radius.',
    source: 'eia_petroleum_pipelines',
    evaluator: { kind: 'count_within', source: 'eia_petroleum_pipelines', radiusM: PIPELINES_RADIUS_M },
  }),
  f('pipelines_radius_m', 'float', 'meters', 'N', 'D', '-', {
    description: 'Search radius used for the gas and petroleum pipeline counts, in meters.',
    source: 'service_parameter',
    evaluator: { kind: 'radius_used', radiusM: PIPELINES_RADIUS_M },
  }),
  f('nearest_public_water_system_name', 'string', '-', 'Y', 'D', '-', {
    description: 'Name of the nearest community public water system service area.',
    null_meaning: noneFound('public water system', 'public water system'),
    source: 'epa_sdwis',
    evaluator: { kind: 'nearest_attribute', source: 'epa_sdwis', property: 'name' },
  }),
  f('nearest_rail_line_distance_m', 'float', 'meters', 'Y', 'M', 'dc', {
    description: 'Distance to the nearest rail line, searched within 5 km of the point, in meters.',
    null_meaning: noneWithin('rail line', '5 km', 'rail'),
    source: 'bts_ntad_rail',
    evaluator: { kind: 'nearest_distance', source: 'bts_ntad_rail', maxDistanceM: 5_000 },
  }),
  f('nearest_airport_name', 'string', '-', 'N', 'M', '-', {
    description: 'Name of the nearest public-use airport.',
    source: 'bts_ntad_airports',
    evaluator: { kind: 'nearest_attribute', source: 'bts_ntad_airports', property: 'name' },
  }),
  f('nearest_airport_distance_m', 'float', 'meters', 'N', 'M', 'wnd', {
    description: 'Distance to the nearest public-use airport, in meters.',
    hints: 'Tall structures near airports may need an FAA obstruction evaluation.',
    source: 'bts_ntad_airports',
    evaluator: { kind: 'nearest_distance', source: 'bts_ntad_airports' },
  }),
  f('nearest_port_name', 'string', '-', 'N', 'M', '-', {
    description: 'Name of the nearest principal port.',
    source: 'bts_ntad_ports',
    evaluator: { kind: 'nearest_attribute', source: 'bts_ntad_ports', property: 'name' },
  }),
  f('nearest_antenna_structure_distance_m', 'float', 'meters', 'N', 'W', '-', {
    description: 'Distance to the nearest registered antenna structure, in meters.',
    source: 'fcc_asr',
    evaluator: { kind: 'nearest_distance', source: 'fcc_asr' },
  }),
  f('nearest_antenna_structure_height_m', 'float', 'meters', 'N', 'W', '-', {
    description: 'Overall height above ground of the nearest registered antenna structure, in meters.',
    source: 'fcc_asr',
    evaluator: { kind: 'nearest_attribute', source: 'fcc_asr', property: 'height_m' },
  }),
  f('nearest_antenna_structure_type', 'string', '-', 'N', 'W', '-', {
    description: 'Structure type of the nearest registered antenna structure (for example a guyed tower or a building).',
    source: 'fcc_asr',
    evaluator: { kind: 'nearest_attribute', source: 'fcc_asr', property: 'structure_type' },
  }),
  f('nearest_antenna_structure_owner', 'string', '-', 'N', 'W', '-', {
    description: 'Registered owner of the nearest antenna structure.',
    source: 'fcc_asr',
    evaluator: { kind: 'nearest_attribute', source: 'fcc_asr', property: 'owner' },
  }),
  f('antenna_structures_within_500m_count', 'int', '-', 'N', 'W', '-', {
    description: 'Number of registered antenna structures within 500 m of the point.',
    hints: '0 when none lies within 500 m.',
    source: 'fcc_asr',
    evaluator: { kind: 'count_within', source: 'fcc_asr', radiusM: 500 },
  }),
  f('antenna_structures_within_2km_count', 'int', '-', 'N', 'W', '-', {
    description: 'Number of registered antenna structures within 2 km of the point.',
    hints: '0 when none lies within 2 km.',
    source: 'fcc_asr',
    evaluator: { kind: 'count_within', source: 'fcc_asr', radiusM: 2_000 },
  }),
  f('nearest_substation_distance_m', 'float', 'meters', 'Y', 'M', 'sto,dc,grd', {
    description: 'Distance to the nearest electric substation, in meters.',
    null_meaning: NO_SUBSTATION,
    source: 'hifld_substations',
    evaluator: { kind: 'nearest_distance', source: 'hifld_substations' },
  }),
  f('nearest_substation_max_voltage_kv', 'float', 'kV', 'Y', 'M', 'sto,dc,grd', {
    description: 'Highest voltage of the nearest substation, in kV.',
    null_meaning: noneOrNotPublished('substation', 'substation'),
    source: 'hifld_substations',
    evaluator: { kind: 'nearest_attribute', source: 'hifld_substations', property: 'max_voltage_kv' },
  }),
  f('nearest_substation_status', 'string', '-', 'Y', 'M', 'sto,dc,grd', {
    description: 'Operating status of the nearest substation (for example IN SERVICE).',
    null_meaning: noneOrNotPublished('substation', 'substation'),
    source: 'hifld_substations',
    evaluator: { kind: 'nearest_attribute', source: 'hifld_substations', property: 'status' },
  }),
  f('substations_within_radius_count', 'int', '-', 'Y', 'M', 'sit,dc,grd', {
    description: 'Number of electric substations within substations_radius_m of the point.',
    hints: '0 when none lies within the radius.',
    null_meaning: countUnavailable('substation'),
    source: 'hifld_substations',
    evaluator: { kind: 'count_within', source: 'hifld_substations', radiusM: SUBSTATIONS_RADIUS_M },
  }),
  f('substations_radius_m', 'float', 'meters', 'Y', 'M', 'sit,dc,grd', {
    description: 'Search radius used for substations_within_radius_count, in meters.',
    null_meaning: 'The substation index is unavailable, so no count was made.',
    source: 'service_parameter',
    evaluator: { kind: 'radius_used', source: 'hifld_substations', radiusM: SUBSTATIONS_RADIUS_M },
  }),
  f('electric_utility_service_territory', 'string', '-', 'Y', 'M', 'sto,dc,grd', {
    description: 'Retail electric utility whose service territory contains the point.',
    null_meaning: notInside('a mapped utility service territory', 'service territory'),
    source: 'hifld_electric_service_territories',
    evaluator: { kind: 'containing_attribute', source: 'hifld_electric_service_territories', property: 'utility_name' },
  }),
  f('avg_retail_electricity_price_industrial_usd_per_kwh', 'float', 'USD/kWh', 'Y', 'M', 'sto,dc', {
    description: 'Average retail electricity price paid by industrial customers of the serving utility, in USD per kWh.',
    hints: 'An average of revenue over sales, not a tariff quote.',
    null_meaning: outsideCoverage('retail electricity price'),
    source: 'eia_861_retail_sales',
    evaluator: { kind: 'containing_attribute', source: 'eia_861_retail_sales', property: 'industrial_usd_per_kwh' },
  }),
  f('grid_price_usd_per_mwh', 'float', 'USD/MWh', 'Y', 'M', 'dc', {
    description: 'Industrial grid electricity price in USD per MWh: avg_retail_electricity_price_industrial_usd_per_kwh x 1000.',
    hints: 'Compare with modeled_onsite_gas_generation_cost_usd_per_mwh for on-site generation.',
    null_meaning: derivedFrom('avg_retail_electricity_price_industrial_usd_per_kwh'),
    source: 'derived',
    evaluator: { kind: 'derived', formula_version: 1, input: 'avg_retail_electricity_price_industrial_usd_per_kwh', factor: 1000 },
    derivation: {
      formula: 'avg_retail_electricity_price_industrial_usd_per_kwh x 1000',
      formula_version: 1,
      inputs: ['avg_retail_electricity_price_industrial_usd_per_kwh'],
    },
  }),
  f('modeled_onsite_gas_generation_cost_usd_per_mwh', 'float', 'USD/MWh', 'Y', 'M', 'dc', {
    description: 'Modeled fuel cost of generating power on site from natural gas, in USD per MWh: industrial gas price / 1.037 MMBtu per Mcf x a 9.5 MMBtu/MWh heat rate.',
    hints: 'Fuel only: excludes capital, operations, maintenance and emissions costs.',
    null_meaning: derivedFrom('natural_gas_industrial_price_usd_per_mcf'),
    source: 'derived',
    evaluator: { kind: 'derived', formula_version: 1, input: 'natural_gas_industrial_price_usd_per_mcf', factor: 9.5 / 1.037 },
    derivation: {
      formula:
        'natural_gas_industrial_price_usd_per_mcf / 1.037 (MMBtu per Mcf) x 9.5 (MMBtu per MWh heat rate); fuel only',
      formula_version: 1,
      inputs: ['natural_gas_industrial_price_usd_per_mcf'],
    },
  }),
  f('egrid_subregion', 'string', '-', 'Y', 'M', 'dc,grd', {
    description: 'eGRID subregion containing the point (for example RFCE or ERCT).',
    null_meaning: notInside('a mapped eGRID subregion', 'eGRID'),
    source: 'epa_egrid',
    evaluator: { kind: 'containing_attribute', source: 'epa_egrid', property: 'subregion' },
  }),
  f('egrid_co2_output_rate_kg_per_mwh', 'float', 'kgCO2e/MWh', 'Y', 'M', 'sto,dc', {
    description: 'Average CO2-equivalent emission rate of generation in the eGRID subregion, in kg per MWh.',
    null_meaning: notInside('a mapped eGRID subregion', 'eGRID'),
    source: 'epa_egrid',
    evaluator: { kind: 'containing_attribute', source: 'epa_egrid', property: 'co2_kg_per_mwh' },
  }),
  f('interconnection_queue_active_capacity_county_mw', 'float', 'MW', 'Y', 'M', 'sto,dc,grd', {
    description: "Total capacity of active interconnection-queue requests in the point's county, in MW.",
    hints: QUEUE_HINT,
    null_meaning: outsideCoverage('interconnection queue'),
    source: 'lbnl_queued_up',
    evaluator: queueCapacity('area_kind', 'county'),
  }),
  f('interconnection_queue_active_capacity_pjm_mw', 'float', 'MW', 'Y', 'M', '-', {
    description: 'Total capacity of active requests in the PJM interconnection queue, in MW, for points in the PJM footprint.',
    hints: QUEUE_HINT,
    null_meaning: 'The point is outside the PJM footprint, or the interconnection queue index is unavailable.',
    source: 'lbnl_queued_up',
    evaluator: queueCapacity('iso', 'PJM'),
  }),
  f('interconnection_queue_active_capacity_miso_mw', 'float', 'MW', 'Y', 'M', '-', {
    description: 'Total capacity of active requests in the MISO interconnection queue, in MW, for points in the MISO footprint.',
    hints: QUEUE_HINT,
    null_meaning: 'The point is outside the MISO footprint, or the interconnection queue index is unavailable.',
    source: 'lbnl_queued_up',
    evaluator: queueCapacity('iso', 'MISO'),
  }),
  f('interconnection_queue_active_capacity_ercot_mw', 'float', 'MW', 'Y', 'M', '-', {
    description: 'Total capacity of active requests in the ERCOT interconnection queue, in MW, for points in the ERCOT footprint.',
    hints: QUEUE_HINT,
    null_meaning: 'The point is outside the ERCOT footprint, or the interconnection queue index is unavailable.',
    source: 'lbnl_queued_up',
    evaluator: queueCapacity('iso', 'ERCOT'),
  }),
  f('interconnection_queue_active_capacity_caiso_mw', 'float', 'MW', 'Y', 'M', '-', {
    description: 'Total capacity of active requests in the CAISO interconnection queue, in MW, for points in the CAISO footprint.',
    hints: QUEUE_HINT,
    null_meaning: 'The point is outside the CAISO footprint, or the interconnection queue index is unavailable.',
    source: 'lbnl_queued_up',
    evaluator: queueCapacity('iso', 'CAISO'),
  }),
  f('interconnection_queue_active_capacity_spp_mw', 'float', 'MW', 'Y', 'M', '-', {
    description: 'Total capacity of active requests in the SPP interconnection queue, in MW, for points in the SPP footprint.',
    hints: QUEUE_HINT,
    null_meaning: 'The point is outside the SPP footprint, or the interconnection queue index is unavailable.',
    source: 'lbnl_queued_up',
    evaluator: queueCapacity('iso', 'SPP'),
  }),
  f('nearest_proposed_generator_distance_m', 'float', 'meters', 'Y', 'M', 'sto,grd', {
    description: 'Distance to the nearest proposed (planned, not yet operating) generator, in meters.',
    null_meaning: noneFound('proposed generator', 'proposed generator'),
    source: 'eia_860m_proposed_generators',
    evaluator: { kind: 'nearest_distance', source: 'eia_860m_proposed_generators' },
  }),
  f('surface_water_supply_use_index_huc12', 'float', '-', 'Y', 'Y', 'dc', {
    description: "Surface-water supply and use index of the point's 12-digit watershed, a measure of water stress; CONUS only.",
    hints: 'Higher means more of the local surface-water supply is already in use.',
    null_meaning: conusOnly('water use'),
    source: 'usgs_water_use',
    evaluator: { kind: 'containing_attribute', source: 'usgs_water_use', property: 'supply_use_index', conusOnly: true },
  }),
  f('public_water_system_population_served', 'int', '-', 'Y', 'M', 'dc', {
    description: 'Population served by the nearest public water system (the one named in nearest_public_water_system_name).',
    null_meaning: noneOrNotPublished('public water system', 'public water system'),
    source: 'epa_sdwis',
    evaluator: { kind: 'nearest_attribute', source: 'epa_sdwis', property: 'population_served' },
  }),
  f('huc12_thermoelectric_consumptive_use_m3_per_day', 'float', 'm3/day', 'Y', 'Y', 'dc', {
    description: "Water consumed by thermoelectric power plants in the point's 12-digit watershed, in cubic meters per day; CONUS only.",
    null_meaning: conusOnly('water use'),
    source: 'usgs_water_use',
    evaluator: { kind: 'containing_attribute', source: 'usgs_water_use', property: 'thermoelectric_consumptive_use_m3_per_day', conusOnly: true },
  }),
  f('nearest_groundwater_well_depth_to_water_m', 'float', 'meters', 'Y', 'D', 'dc', {
    description: 'Most recent depth from land surface to groundwater at the nearest monitoring well, in meters.',
    null_meaning: noneOrNotPublished('monitoring well', 'groundwater'),
    source: 'usgs_nwis_groundwater',
    evaluator: { kind: 'nearest_attribute', source: 'usgs_nwis_groundwater', property: 'depth_to_water_m' },
  }),
  f('fiber_provider_count', 'int', '-', 'Y', 'M', 'dc', {
    description: 'Number of providers reporting fiber broadband service at the location of the point.',
    null_meaning: outsideCoverage('broadband'),
    source: 'fcc_broadband_map',
    evaluator: { kind: 'containing_attribute', source: 'fcc_broadband_map', property: 'fiber_provider_count' },
  }),
  f('fiber_broadband_available', 'bool', '-', 'Y', 'M', 'dc', {
    description: 'Whether any provider reports fiber broadband service at the location of the point.',
    null_meaning: outsideCoverage('broadband'),
    source: 'fcc_broadband_map',
    evaluator: { kind: 'containing_attribute', source: 'fcc_broadband_map', property: 'fiber_provider_count', as: 'positive' },
  }),
  f('mobile_5g_coverage_class', 'string', '-', 'Y', 'M', 'dc', {
    description: 'Class of reported 5G mobile coverage at the point.',
    null_meaning: outsideCoverage('mobile network'),
    source: 'fcc_broadband_map',
    evaluator: { kind: 'containing_attribute', source: 'fcc_broadband_map', property: 'mobile_5g_class' },
  }),
  f('nearest_urban_area_distance_m', 'float', 'meters', 'Y', 'Y', 'sit,dc', {
    description: 'Distance to the nearest Census urban area, in meters.',
    hints: 'A proxy for access to labor, services and fiber.',
    null_meaning: noneFound('urban area', 'urban area'),
    source: 'census_urban_areas',
    evaluator: { kind: 'nearest_distance', source: 'census_urban_areas' },
  }),
  f('natural_gas_citygate_price_usd_per_mcf', 'float', 'USD/MCF', 'Y', 'M', 'dc', {
    description: "Average natural gas citygate price in the point's state, in USD per thousand cubic feet.",
    null_meaning: outsideCoverage('natural gas price'),
    source: 'eia_natural_gas_prices',
    evaluator: { kind: 'containing_attribute', source: 'eia_natural_gas_prices', property: 'citygate_usd_per_mcf' },
  }),
  f('natural_gas_industrial_price_usd_per_mcf', 'float', 'USD/MCF', 'Y', 'M', 'dc', {
    description: "Average price of natural gas delivered to industrial customers in the point's state, in USD per thousand cubic feet.",
    null_meaning: outsideCoverage('natural gas price'),
    source: 'eia_natural_gas_prices',
    evaluator: { kind: 'containing_attribute', source: 'eia_natural_gas_prices', property: 'industrial_usd_per_mcf' },
  }),
  f('in_shale_play', 'bool', '-', 'Y', 'M', 'dc', {
    description: 'Whether the point lies within a mapped shale oil or gas play.',
    null_meaning: outsideCoverage('shale play'),
    source: 'eia_shale_plays',
    evaluator: { kind: 'contains', source: 'eia_shale_plays' },
  }),
  f('nearest_shale_play_name', 'string', '-', 'Y', 'M', 'dc', {
    description: 'Name of the shale play containing or nearest to the point.',
    null_meaning: noneFound('shale play', 'shale play'),
    source: 'eia_shale_plays',
    evaluator: { kind: 'nearest_attribute', source: 'eia_shale_plays', property: 'name' },
  }),
  f('sedimentary_basin_name', 'string', '-', 'Y', 'M', 'dc', {
    description: 'Name of the sedimentary basin containing the point.',
    null_meaning: notInside('a mapped sedimentary basin', 'sedimentary basin'),
    source: 'eia_sedimentary_basins',
    evaluator: { kind: 'containing_attribute', source: 'eia_sedimentary_basins', property: 'name' },
  }),
  f('nearest_gas_compressor_distance_m', 'float', 'm', 'Y', 'M', 'dc', {
    description: 'Distance to the nearest natural gas compressor station, in meters.',
    null_meaning: noneFound('compressor station', 'compressor station'),
    source: 'eia_gas_compressor_stations',
    evaluator: { kind: 'nearest_distance', source: 'eia_gas_compressor_stations' },
  }),
  f('nearest_gas_storage_distance_m', 'float', 'm', 'Y', 'M', 'dc', {
    description: 'Distance to the nearest underground natural gas storage field, in meters.',
    null_meaning: noneFound('gas storage field', 'gas storage'),
    source: 'eia_gas_storage',
    evaluator: { kind: 'nearest_distance', source: 'eia_gas_storage' },
  }),
  f('nearest_lng_terminal_distance_m', 'float', 'm', 'Y', 'M', 'dc', {
    description: 'Distance to the nearest liquefied natural gas (LNG) terminal, in meters.',
    null_meaning: noneFound('LNG terminal', 'LNG terminal'),
    source: 'eia_lng_terminals',
    evaluator: { kind: 'nearest_distance', source: 'eia_lng_terminals' },
  }),
  f('nearest_submarine_cable_distance_m', 'float', 'meters', 'Y', 'M', 'dc', {
    description: 'Distance to the nearest submarine telecommunications cable, in meters.',
    null_meaning: noneFound('submarine cable', 'submarine cable'),
    source: 'noaa_submarine_cables',
    evaluator: { kind: 'nearest_distance', source: 'noaa_submarine_cables' },
  }),
  f('nearest_submarine_cable_name', 'str', '-', 'Y', 'M', 'dc', {
    description: 'Name of the nearest submarine telecommunications cable.',
    null_meaning: noneOrUnnamed('submarine cable', 'submarine cable'),
    source: 'noaa_submarine_cables',
    evaluator: { kind: 'nearest_attribute', source: 'noaa_submarine_cables', property: 'name' },
  }),
  f('nearest_long_haul_rail_corridor_distance_m', 'float', 'meters', 'Y', 'M', 'dc', {
    description: 'Distance to the nearest long-haul (mainline) rail corridor, in meters.',
    hints: 'Long-haul fiber often follows mainline rail rights-of-way.',
    null_meaning: noneFound('long-haul rail corridor', 'rail'),
    source: 'bts_ntad_rail',
    evaluator: { kind: 'nearest_distance', source: 'bts_ntad_rail', filter: { property: 'long_haul', oneOf: [true] } },
  }),
  f('nearest_interstate_gas_pipeline_distance_m', 'float', 'meters', 'Y', 'M', 'dc', {
    description: 'Distance to the nearest interstate natural gas pipeline, in meters.',
    null_meaning: noneFound('interstate gas pipeline', 'gas pipeline'),
    source: 'eia_gas_pipelines',
    evaluator: { kind: 'nearest_distance', source: 'eia_gas_pipelines', filter: INTERSTATE },
  }),
  f('nearest_interstate_gas_pipeline_operator', 'string', '-', 'Y', 'M', '-', {
    description: 'Operator of the nearest interstate natural gas pipeline.',
    null_meaning: noneOrNotPublished('interstate gas pipeline', 'gas pipeline'),
    source: 'eia_gas_pipelines',
    evaluator: { kind: 'nearest_attribute', source: 'eia_gas_pipelines', property: 'operator', filter: INTERSTATE },
  }),
  f('nearest_gas_transmission_pipeline_distance_m', 'float', 'meters', 'Y', 'M', '-', {
    description: 'Distance to the nearest natural gas transmission pipeline (interstate or intrastate), in meters.',
    null_meaning: NO_GAS_PIPELINE,
    source: 'eia_gas_pipelines',
    evaluator: { kind: 'nearest_distance', source: 'eia_gas_pipelines', filter: GAS_TRANSMISSION },
  }),
];
