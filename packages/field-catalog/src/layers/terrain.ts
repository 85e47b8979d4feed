// Spec: "#### Layer terrain". Arguments after the name follow the spec's columns:
// type | unit | nullable | ttl | presets.

import type { FeatureFilter } from '../field-evaluator.js';
import { layerFields, type FieldRecord } from '../field-record.js';
import { noneOrUnnamed, noneWithin, notInside, notPublished } from '../null-meanings.js';

const f = layerFields('terrain');

const NHD_AREA: FeatureFilter = { property: 'feature_type', oneOf: ['area'] };
const NHD_FLOWLINE: FeatureFilter = { property: 'feature_type', oneOf: ['flowline'] };
const NHD_WATERBODY: FeatureFilter = { property: 'feature_type', oneOf: ['waterbody'] };

export const COMPASS_POINTS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;

export const TERRAIN_FIELDS: readonly FieldRecord[] = [
  f('elevation', 'float', 'meters', 'N', 'Y', 'ter,fld,wfu,sit,wnd', {
    description: 'Ground elevation above mean sea level at the point, from a bare-earth elevation model.',
    source: 'usgs_3dep',
    evaluator: { kind: 'grid_value', source: 'usgs_3dep' },
  }),
  f('slope_degrees', 'float', 'degrees', 'N', 'Y', 'ter,wfu,sit,sol,wnd,sto,dc,nh', {
    description: 'Terrain slope at the point in degrees from horizontal, computed from the elevation model.',
    hints: '0 is flat ground; steeper slopes raise grading costs for solar, storage and building pads.',
    source: 'usgs_3dep',
    evaluator: { kind: 'slope_degrees', source: 'usgs_3dep' },
  }),
  f('aspect_degrees', 'float', 'degrees', 'N', 'Y', 'sol', {
    description: 'Direction the slope faces at the point, in degrees clockwise from north.',
    hints: '0 = north, 90 = east, 180 = south, 270 = west; not meaningful on flat ground.',
    source: 'usgs_3dep',
    evaluator: { kind: 'aspect_degrees', source: 'usgs_3dep' },
  }),
  f('aspect_cardinal', 'string', '-', 'N', 'Y', 'ter,sol', {
    description: 'Slope aspect at the point as one of the eight compass points.',
    hints: 'South-facing slopes (SE, S, SW) receive more sun in the northern hemisphere.',
    source: 'usgs_3dep',
    evaluator: { kind: 'aspect_cardinal', source: 'usgs_3dep' },
    enum: COMPASS_POINTS,
  }),
  f('coast_distance_m', 'float', 'meters', 'N', 'Y', 'ter,fld', {
    description: 'Distance from the point to the nearest coastline, in meters.',
    source: 'noaa_shoreline',
    evaluator: { kind: 'nearest_distance', source: 'noaa_shoreline' },
  }),
  f('soil_drainage_class', 'string', '-', 'N', 'Y', 'ter', {
    description: 'Natural drainage class of the dominant soil at the point (for example "Well drained" or "Poorly drained").',
    source: 'usda_nrcs_ssurgo',
    evaluator: { kind: 'containing_attribute', source: 'usda_nrcs_ssurgo', property: 'drainage_class' },
  }),
  f('soil_map_unit_name', 'string', '-', 'N', 'Y', '-', {
    description: 'Name of the soil survey map unit containing the point.',
    source: 'usda_nrcs_ssurgo',
    evaluator: { kind: 'containing_attribute', source: 'usda_nrcs_ssurgo', property: 'map_unit_name' },
  }),
  f('bedrock_depth_cm', 'float', 'centimeters', 'N', 'Y', 'ter,wnd', {
    description: 'Depth from the surface to bedrock at the point, in centimeters.',
    hints: 'Shallow bedrock raises the cost of piles, foundations and trenching.',
    source: 'usda_nrcs_ssurgo',
    evaluator: { kind: 'containing_attribute', source: 'usda_nrcs_ssurgo', property: 'bedrock_depth_cm' },
  }),
  f('intersects_nhd_area', 'bool', '-', 'N', 'Y', 'fld', {
    description: 'Whether the point lies inside a mapped hydrography area polygon (for example a wide river channel) of the National Hydrography Dataset.',
    source: 'usgs_nhdplus_hr',
    evaluator: { kind: 'contains', source: 'usgs_nhdplus_hr', filter: NHD_AREA },
  }),
  f('nearest_flowline_name', 'string', '-', 'Y', 'Y', '-', {
    description: 'Name of the nearest mapped stream or river flowline.',
    null_meaning: noneOrUnnamed('flowline', 'hydrography'),
    source: 'usgs_nhdplus_hr',
    evaluator: { kind: 'nearest_attribute', source: 'usgs_nhdplus_hr', property: 'name', filter: NHD_FLOWLINE },
  }),
  f('nearest_waterbody_name', 'string', '-', 'Y', 'Y', 'fld', {
    description: 'Name of the nearest mapped lake, pond or reservoir.',
    null_meaning: noneOrUnnamed('waterbody', 'hydrography'),
    source: 'usgs_nhdplus_hr',
    evaluator: { kind: 'nearest_attribute', source: 'usgs_nhdplus_hr', property: 'name', filter: NHD_WATERBODY },
  }),
  f('huc_12_name', 'string', '-', 'Y', 'Y', '-', {
    description: 'Name of the 12-digit hydrologic unit (subwatershed) containing the point.',
    null_meaning: notPublished('a mapped 12-digit hydrologic unit', 'watershed boundary'),
    source: 'usgs_wbd',
    evaluator: { kind: 'containing_attribute', source: 'usgs_wbd', property: 'huc12_name' },
  }),
  f('within_floodplain_polygon', 'bool', '-', 'N', 'M', 'fld,sit,dc,nh', {
    description: 'Whether the point lies inside a mapped special flood hazard area polygon.',
    hints: 'false also where no flood map has been published, so false is not proof of low flood risk.',
    source: 'fema_nfhl',
    evaluator: { kind: 'contains', source: 'fema_nfhl' },
  }),
  f('intersects_wetland', 'bool', '-', 'N', 'Y', 'fld,sit', {
    description: 'Whether the point lies inside a mapped wetland polygon.',
    source: 'usfws_nwi',
    evaluator: { kind: 'contains', source: 'usfws_nwi' },
  }),
  f('wetland_type', 'string', '-', 'Y', 'Y', 'fld,sit', {
    description: 'Wetland type of the mapped wetland containing the point (for example "Freshwater Emergent Wetland").',
    null_meaning: notInside('a mapped wetland', 'wetland'),
    source: 'usfws_nwi',
    evaluator: { kind: 'containing_attribute', source: 'usfws_nwi', property: 'wetland_type' },
  }),
  f('wetland_subtype', 'string', '-', 'Y', 'Y', 'fld', {
    description: 'Detailed classification (the Cowardin attribute code) of the mapped wetland containing the point.',
    null_meaning: notInside('a mapped wetland', 'wetland'),
    source: 'usfws_nwi',
    evaluator: { kind: 'containing_attribute', source: 'usfws_nwi', property: 'wetland_subtype' },
  }),
  f('wetland_acres', 'float', 'acre', 'Y', 'Y', 'fld', {
    description: 'Area of the whole mapped wetland polygon containing the point, in acres.',
    hints: 'The size of the whole polygon, not the share inside any parcel (see wetland_acres_on_parcel).',
    null_meaning: notInside('a mapped wetland', 'wetland'),
    source: 'usfws_nwi',
    evaluator: { kind: 'polygon_area', source: 'usfws_nwi', unit: 'acres' },
  }),
  f('nearest_wetland_distance_m', 'float', 'm', 'Y', 'Y', 'fld,sit', {
    description: 'Distance to the nearest mapped wetland, searched within 500 m of the point, in meters.',
    null_meaning: noneWithin('wetland', '500 m', 'wetland'),
    source: 'usfws_nwi',
    evaluator: { kind: 'nearest_distance', source: 'usfws_nwi', maxDistanceM: 500 },
  }),
  f('wetlands_within_100m_count', 'int', '-', 'N', 'Y', 'fld,sit', {
    description: 'Number of mapped wetland polygons within 100 m of the point.',
    hints: '0 when no wetland lies within 100 m.',
    source: 'usfws_nwi',
    evaluator: { kind: 'count_within', source: 'usfws_nwi', radiusM: 100 },
  }),
  f('wetlands_within_500m_count', 'int', '-', 'N', 'Y', 'fld', {
    description: 'Number of mapped wetland polygons within 500 m of the point.',
    hints: '0 when no wetland lies within 500 m.',
    source: 'usfws_nwi',
    evaluator: { kind: 'count_within', source: 'usfws_nwi', radiusM: 500 },
  }),
  f('surface_water_permanence_pct', 'float', 'percent', 'N', 'M', 'fld,dc', {
    description: 'Share of satellite observations in which surface water was present at the point, in percent.',
    hints: '0 means water was never observed; 100 means permanent water.',
    source: 'jrc_global_surface_water',
    evaluator: { kind: 'grid_value', source: 'jrc_global_surface_water' },
  }),
  f('soil_shrink_swell_class', 'string', '-', 'Y', 'Y', 'dc,nh', {
    description: 'Shrink-swell class of the soil at the point, from its linear extensibility.',
    hints: 'High and Very High soils expand and shrink with moisture and need special foundation design.',
    null_meaning: notPublished('a rated soil map unit', 'soil survey'),
    source: 'usda_nrcs_ssurgo',
    evaluator: { kind: 'containing_attribute', source: 'usda_nrcs_ssurgo', property: 'shrink_swell_class' },
    enum: ['Low', 'Moderate', 'High', 'Very High'],
  }),
  f('prime_farmland_classification', 'string', '-', 'Y', 'Y', 'sol,wnd,sto', {
    description: 'Farmland classification of the soil map unit containing the point.',
    hints: 'Prime and statewide-importance farmland can face conversion limits or local opposition to energy projects.',
    null_meaning: notPublished('a rated soil map unit', 'soil survey'),
    source: 'usda_nrcs_ssurgo',
    evaluator: { kind: 'containing_attribute', source: 'usda_nrcs_ssurgo', property: 'farmland_class' },
    enum: [
      'prime',
      'prime_if_conditions_met',
      'statewide_importance',
      'unique',
      'local_importance',
      'not_prime',
    ],
  }),
];
