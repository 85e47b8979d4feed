// Spec: "#### Layer land_cover".

import { layerFields, type FieldRecord } from '../field-record.js';
import { conusOnly, outsideCoverage } from '../null-meanings.js';

const f = layerFields('land_cover');

export const LAND_COVER_FIELDS: readonly FieldRecord[] = [
  f('lcms_class', 'string', '-', 'Y', 'Y', 'wfu,lc,sit', {
    description: 'Land cover class at the point from the Landscape Change Monitoring System.',
    null_meaning: outsideCoverage('land cover'),
    source: 'usfs_lcms',
    evaluator: { kind: 'containing_attribute', source: 'usfs_lcms', property: 'land_cover_class' },
  }),
  f('land_use_class', 'string', '-', 'Y', 'Y', 'lc', {
    description: 'Land use class at the point (for example Agriculture, Developed or Forest).',
    null_meaning: outsideCoverage('land use'),
    source: 'usfs_lcms',
    evaluator: { kind: 'containing_attribute', source: 'usfs_lcms', property: 'land_use_class' },
  }),
  f('tree_canopy_pct', 'float', 'percent', 'Y', 'Y', 'wfu,lc,sol', {
    description: 'Tree canopy cover at the point, in percent.',
    hints: 'Dense canopy means clearing cost for solar and fuel load for wildfire.',
    null_meaning: outsideCoverage('tree canopy'),
    source: 'usfs_nlcd_tree_canopy',
    evaluator: { kind: 'grid_value', source: 'usfs_nlcd_tree_canopy' },
  }),
  f('ndvi_current', 'float', '-', 'N', 'W', 'wfu', {
    description: 'Most recent Normalized Difference Vegetation Index at the point, from -1 to 1.',
    hints: 'Higher means denser green vegetation; near 0 is bare ground; negative is usually water.',
    source: 'copernicus_sentinel2_ndvi',
    evaluator: { kind: 'containing_attribute', source: 'copernicus_sentinel2_ndvi', property: 'ndvi_current' },
  }),
  f('ndvi_change_5y', 'float', '-', 'N', 'W', 'wfu', {
    description: 'Change in NDVI at the point over the last five years (current minus five years earlier).',
    hints: 'Negative values signal vegetation loss such as clearing, fire or drought.',
    source: 'copernicus_sentinel2_ndvi',
    evaluator: { kind: 'containing_attribute', source: 'copernicus_sentinel2_ndvi', property: 'ndvi_change_5y' },
  }),
  f('cdl_class', 'string', '-', 'Y', 'Y', 'lc', {
    description: 'Crop or land cover class at the point from the Cropland Data Layer; CONUS only.',
    null_meaning: conusOnly('cropland'),
    source: 'usda_nass_cdl',
    evaluator: { kind: 'containing_attribute', source: 'usda_nass_cdl', property: 'crop_class', conusOnly: true },
  }),
  // The spec singles this field out: null (unknown) must not be read as false.
  f('is_cultivated', 'bool', '-', 'Y', 'Y', 'sol', {
    description: 'Whether the point is cultivated cropland according to the Cropland Data Layer; CONUS only.',
    hints: 'null means cultivation is unknown, which differs from false.',
    null_meaning:
      'Cultivation is unknown: the point is outside coverage (CONUS only) or the cropland index is unavailable. This differs from false.',
    source: 'usda_nass_cdl',
    evaluator: { kind: 'containing_attribute', source: 'usda_nass_cdl', property: 'cultivated', conusOnly: true },
  }),
  f('dominant_crop_5y', 'string', '-', 'Y', 'Y', 'lc', {
    description: 'Most frequent crop at the point over the last five Cropland Data Layer years; CONUS only.',
    null_meaning:
      'The point is outside the contiguous United States (CONUS only), had no crop in the last five years, or the cropland index is unavailable.',
    source: 'usda_nass_cdl',
    evaluator: { kind: 'containing_attribute', source: 'usda_nass_cdl', property: 'dominant_crop_5y', conusOnly: true },
  }),
];
