// Spec: "#### Layer built_environment".

import { layerFields, type FieldRecord } from '../field-record.js';
import { noneFound, noneOrNotPublished, noneOrUnnamed, notInside, notPublished } from '../null-meanings.js';

const f = layerFields('built_environment');

const NO_BUILDING = notPublished('a mapped building', 'building');

export const BUILT_ENVIRONMENT_FIELDS: readonly FieldRecord[] = [
  f('primary_building_height_m', 'float', 'meters', 'Y', 'M', 'bld', {
    description: 'Height of the primary building at the point, in meters.',
    null_meaning: NO_BUILDING,
    source: 'overture_buildings',
    evaluator: { kind: 'containing_attribute', source: 'overture_buildings', property: 'height_m' },
  }),
  f('primary_building_num_floors', 'int', '-', 'Y', 'M', 'bld', {
    description: 'Number of above-ground floors of the primary building at the point.',
    null_meaning: NO_BUILDING,
    source: 'overture_buildings',
    evaluator: { kind: 'containing_attribute', source: 'overture_buildings', property: 'num_floors' },
  }),
  f('primary_building_footprint_sqm', 'float', 'square_meters', 'Y', 'M', 'bld', {
    description: 'Ground footprint area of the primary building at the point, in square meters.',
    null_meaning: NO_BUILDING,
    source: 'overture_buildings',
    evaluator: { kind: 'polygon_area', source: 'overture_buildings', unit: 'square_meters' },
  }),
  f('primary_building_map_class', 'string', '-', 'Y', 'M', 'bld', {
    description: 'Building category label of the primary building at the point (for example residential or commercial).',
    null_meaning: NO_BUILDING,
    source: 'overture_buildings',
    evaluator: { kind: 'containing_attribute', source: 'overture_buildings', property: 'building_class' },
  }),
  f('nearest_major_road_name', 'string', '-', 'Y', 'M', '-', {
    description: 'Name of the nearest major road.',
    null_meaning: noneOrUnnamed('major road', 'road'),
    source: 'osm_roads',
    evaluator: { kind: 'nearest_attribute', source: 'osm_roads', property: 'name' },
  }),
  f('nearest_major_road_distance_m', 'float', 'meters', 'Y', 'M', 'sit', {
    description: 'Distance to the nearest major road, in meters.',
    hints: 'A proxy for construction access and delivery of heavy equipment.',
    null_meaning: noneFound('major road', 'road'),
    source: 'osm_roads',
    evaluator: { kind: 'nearest_distance', source: 'osm_roads' },
  }),
  f('nearest_bridge_name', 'string', '-', 'Y', 'M', '-', {
    description: 'Name of the nearest bridge in the National Bridge Inventory.',
    null_meaning: noneOrUnnamed('bridge', 'bridge'),
    source: 'fhwa_nbi',
    evaluator: { kind: 'nearest_attribute', source: 'fhwa_nbi', property: 'name' },
  }),
  f('nearest_wind_turbine_distance_m', 'float', 'meters', 'Y', 'M', 'wnd', {
    description: 'Distance to the nearest utility-scale wind turbine, in meters.',
    null_meaning: noneFound('wind turbine', 'wind turbine'),
    source: 'usgs_uswtdb',
    evaluator: { kind: 'nearest_distance', source: 'usgs_uswtdb' },
  }),
  f('nearest_wind_turbine_hub_height_m', 'float', 'meters', 'Y', 'M', 'wnd', {
    description: 'Hub height above ground of the nearest wind turbine, in meters.',
    null_meaning: noneOrNotPublished('wind turbine', 'wind turbine'),
    source: 'usgs_uswtdb',
    evaluator: { kind: 'nearest_attribute', source: 'usgs_uswtdb', property: 'hub_height_m' },
  }),
  f('nearest_wind_turbine_total_height_m', 'float', 'meters', 'Y', 'M', 'wnd', {
    description: 'Total height to blade tip of the nearest wind turbine, in meters.',
    null_meaning: noneOrNotPublished('wind turbine', 'wind turbine'),
    source: 'usgs_uswtdb',
    evaluator: { kind: 'nearest_attribute', source: 'usgs_uswtdb', property: 'total_height_m' },
  }),
  f('nearest_wind_project_capacity_mw', 'float', 'MW', 'Y', 'M', 'wnd', {
    description: 'Nameplate capacity of the wind project the nearest turbine belongs to, in MW.',
    null_meaning: noneOrNotPublished('wind turbine', 'wind turbine'),
    source: 'usgs_uswtdb',
    evaluator: { kind: 'nearest_attribute', source: 'usgs_uswtdb', property: 'project_capacity_mw' },
  }),
  f('nearest_utility_solar_facility_distance_m', 'float', 'meters', 'Y', 'M', 'sol,sto', {
    description: 'Distance to the nearest ground-mounted utility-scale solar facility, in meters.',
    null_meaning: noneFound('utility-scale solar facility', 'solar facility'),
    source: 'usgs_uspvdb',
    evaluator: { kind: 'nearest_distance', source: 'usgs_uspvdb' },
  }),
  f('nearest_utility_solar_facility_capacity_mw', 'float', 'MW', 'Y', 'M', 'sol', {
    description: 'Capacity of the nearest utility-scale solar facility, in MW.',
    null_meaning: noneOrNotPublished('utility-scale solar facility', 'solar facility'),
    source: 'usgs_uspvdb',
    evaluator: { kind: 'nearest_attribute', source: 'usgs_uspvdb', property: 'capacity_mw' },
  }),
  f('nearest_repowering_site_distance_m', 'float', 'meters', 'Y', 'Y', 'sit,sol,wnd,dc', {
    description: 'Distance to the nearest RE-Powering site (a contaminated site, landfill or mine screened for renewable energy), in meters.',
    null_meaning: noneFound('RE-Powering site', 'RE-Powering'),
    source: 'epa_repowering',
    evaluator: { kind: 'nearest_distance', source: 'epa_repowering' },
  }),
  f('in_opportunity_zone', 'bool', '-', 'N', 'M', 'sit,dc', {
    description: 'Whether the point lies in a designated Qualified Opportunity Zone census tract.',
    source: 'cdfi_opportunity_zones',
    evaluator: { kind: 'contains', source: 'cdfi_opportunity_zones' },
  }),
  f('opportunity_zone_tract_geoid', 'string', '-', 'Y', 'M', 'dc', {
    description: 'Census tract GEOID of the Opportunity Zone containing the point.',
    hints: 'A string with significant leading zeros; never parse it as a number.',
    null_meaning: notInside('an Opportunity Zone', 'Opportunity Zone'),
    source: 'cdfi_opportunity_zones',
    evaluator: { kind: 'containing_attribute', source: 'cdfi_opportunity_zones', property: 'tract_geoid' },
  }),
];
