// Spec: "#### Layer parcels", the ordinary (1 credit) rows. The parcel_record metered group,
// also layer parcels, lives in parcel-record.ts because it is billed differently.

import { layerFields, type FieldRecord } from '../field-record.js';
import { notPublished, outsideCoverage } from '../null-meanings.js';

const f = layerFields('parcels');

const NO_EASEMENT = notPublished('a mapped conservation easement', 'conservation easement');
const NO_PROTECTED_AREA = notPublished('a protected area', 'protected area');
const NO_HABITAT = notPublished('designated critical habitat', 'critical habitat');

export const PARCELS_FIELDS: readonly FieldRecord[] = [
  f('political_region', 'string', '-', 'N', 'Y', 'bnd', {
    description: 'State or equivalent first-level region containing the point.',
    source: 'census_tiger',
    evaluator: { kind: 'containing_attribute', source: 'census_tiger', property: 'region' },
  }),
  f('political_county', 'string', '-', 'N', 'Y', 'bnd', {
    description: 'County or county-equivalent containing the point.',
    source: 'census_tiger',
    evaluator: { kind: 'containing_attribute', source: 'census_tiger', property: 'county' },
  }),
  f('political_locality', 'string', '-', 'N', 'Y', 'bnd', {
    description: 'Locality (city, town or county subdivision) containing the point.',
    source: 'census_tiger',
    evaluator: { kind: 'containing_attribute', source: 'census_tiger', property: 'locality' },
  }),
  f('tract_geoid', 'string', '-', 'N', 'Y', 'bnd', {
    description: 'Census tract GEOID of the tract containing the point.',
    hints: 'A string with significant leading zeros; never parse it as a number.',
    source: 'census_tiger',
    evaluator: { kind: 'containing_attribute', source: 'census_tiger', property: 'tract_geoid' },
  }),
  f('intersects_conservation_easement', 'bool', '-', 'N', 'M', 'sit', {
    description: 'Whether the point lies inside a mapped conservation easement.',
    hints: 'Easements usually restrict development for good; treat true as a likely exclusion.',
    source: 'nced_easements',
    evaluator: { kind: 'contains', source: 'nced_easements' },
  }),
  f('easement_holder', 'string', '-', 'Y', 'M', '-', {
    description: 'Organisation holding the conservation easement that contains the point.',
    null_meaning: NO_EASEMENT,
    source: 'nced_easements',
    evaluator: { kind: 'containing_attribute', source: 'nced_easements', property: 'holder' },
  }),
  f('easement_type', 'string', '-', 'Y', 'M', '-', {
    description: 'Type of the conservation easement that contains the point.',
    null_meaning: NO_EASEMENT,
    source: 'nced_easements',
    evaluator: { kind: 'containing_attribute', source: 'nced_easements', property: 'easement_type' },
  }),
  f('easement_purpose', 'string', '-', 'Y', 'M', '-', {
    description: 'Stated purpose of the conservation easement that contains the point.',
    null_meaning: NO_EASEMENT,
    source: 'nced_easements',
    evaluator: { kind: 'containing_attribute', source: 'nced_easements', property: 'purpose' },
  }),
  f('easement_acres', 'float', 'acres', 'Y', 'M', '-', {
    description: 'Area of the whole mapped conservation easement containing the point, in acres.',
    hints: 'The size of the whole easement polygon, not the share inside any parcel (see easement_acres_on_parcel).',
    null_meaning: NO_EASEMENT,
    source: 'nced_easements',
    evaluator: { kind: 'polygon_area', source: 'nced_easements', unit: 'acres' },
  }),
  f('easement_year_established', 'int', '-', 'Y', 'M', '-', {
    description: 'Year the conservation easement containing the point was established.',
    null_meaning: NO_EASEMENT,
    source: 'nced_easements',
    evaluator: { kind: 'containing_attribute', source: 'nced_easements', property: 'year_established' },
  }),
  f('intersects_protected_area', 'bool', '-', 'N', 'M', 'sit', {
    description: 'Whether the point lies inside a protected area of the Protected Areas Database.',
    source: 'usgs_pad_us',
    evaluator: { kind: 'contains', source: 'usgs_pad_us' },
  }),
  f('protected_area_name', 'string', '-', 'Y', 'M', '-', {
    description: 'Name of the protected area containing the point.',
    null_meaning: NO_PROTECTED_AREA,
    source: 'usgs_pad_us',
    evaluator: { kind: 'containing_attribute', source: 'usgs_pad_us', property: 'name' },
  }),
  f('protected_area_gap_status', 'int', '-', 'Y', 'M', 'sit', {
    description: 'GAP status code, 1 to 4, of the protected area containing the point.',
    hints: '1 and 2: managed for biodiversity; 3: multiple use; 4: no known mandate for protection.',
    null_meaning: NO_PROTECTED_AREA,
    source: 'usgs_pad_us',
    evaluator: { kind: 'containing_attribute', source: 'usgs_pad_us', property: 'gap_status' },
    enum: [1, 2, 3, 4],
  }),
  f('protected_area_designation', 'string', '-', 'Y', 'M', '-', {
    description: 'Designation type of the protected area containing the point (for example National Park or Wilderness Area).',
    null_meaning: NO_PROTECTED_AREA,
    source: 'usgs_pad_us',
    evaluator: { kind: 'containing_attribute', source: 'usgs_pad_us', property: 'designation' },
  }),
  f('protected_area_manager', 'string', '-', 'Y', 'M', '-', {
    description: 'Managing agency or organisation of the protected area containing the point.',
    null_meaning: NO_PROTECTED_AREA,
    source: 'usgs_pad_us',
    evaluator: { kind: 'containing_attribute', source: 'usgs_pad_us', property: 'manager' },
  }),
  f('protected_area_public_access', 'string', '-', 'Y', 'M', '-', {
    description: 'Public access status of the protected area containing the point.',
    null_meaning: NO_PROTECTED_AREA,
    source: 'usgs_pad_us',
    evaluator: { kind: 'containing_attribute', source: 'usgs_pad_us', property: 'public_access' },
    enum: ['Open', 'Restricted', 'Closed', 'Unknown'],
  }),
  f('intersects_critical_habitat', 'bool', '-', 'N', 'M', 'sit', {
    description: 'Whether the point lies inside designated or proposed critical habitat of a listed species.',
    source: 'usfws_critical_habitat',
    evaluator: { kind: 'contains', source: 'usfws_critical_habitat' },
  }),
  f('critical_habitat_status', 'string', '-', 'Y', 'M', 'sit', {
    description: 'Whether the critical habitat containing the point is final or proposed.',
    null_meaning: NO_HABITAT,
    source: 'usfws_critical_habitat',
    evaluator: { kind: 'containing_attribute', source: 'usfws_critical_habitat', property: 'status' },
    enum: ['Final', 'Proposed'],
  }),
  f('critical_habitat_species', 'string', '-', 'Y', 'M', '-', {
    description: 'Species whose critical habitat contains the point.',
    null_meaning: NO_HABITAT,
    source: 'usfws_critical_habitat',
    evaluator: { kind: 'containing_attribute', source: 'usfws_critical_habitat', property: 'species' },
  }),
  f('critical_habitat_listing_status', 'string', '-', 'Y', 'M', '-', {
    description: 'Listing status under the Endangered Species Act of the species whose critical habitat contains the point.',
    null_meaning: NO_HABITAT,
    source: 'usfws_critical_habitat',
    evaluator: { kind: 'containing_attribute', source: 'usfws_critical_habitat', property: 'listing_status' },
    enum: ['Endangered', 'Threatened'],
  }),
  f('surface_management_agency', 'string', '-', 'Y', 'M', 'sol,wnd,sto,dc', {
    description: 'Agency that manages the land surface at the point.',
    hints: 'PRIVATE_OR_UNKNOWN covers private land and land with no known manager; federal land needs a right-of-way.',
    null_meaning: outsideCoverage('surface management'),
    source: 'blm_surface_management_agency',
    evaluator: { kind: 'containing_attribute', source: 'blm_surface_management_agency', property: 'agency', whenNotInside: 'PRIVATE_OR_UNKNOWN' },
    enum: ['BLM', 'USFS', 'NPS', 'FWS', 'DOD', 'BOR', 'BIA', 'OTHER_FEDERAL', 'STATE', 'PRIVATE_OR_UNKNOWN'],
  }),
  f('special_use_airspace_type', 'string', '-', 'Y', 'W', 'wnd', {
    description: 'Type of special use airspace over the point, or none.',
    hints: 'Military operations areas and restricted airspace can limit tall structures such as wind turbines.',
    null_meaning: outsideCoverage('special use airspace'),
    source: 'faa_special_use_airspace',
    evaluator: { kind: 'containing_attribute', source: 'faa_special_use_airspace', property: 'airspace_type', whenNotInside: 'none' },
    enum: ['moa', 'restricted', 'prohibited', 'warning', 'alert', 'none'],
  }),
  f('blm_solar_application_land_status', 'string', '-', 'Y', 'Y', 'sol', {
    description: "Status of the point's land for solar right-of-way applications under the BLM solar program.",
    hints: 'not_blm_solar_planning_area is returned outside the planning area.',
    null_meaning: outsideCoverage('BLM solar planning'),
    source: 'blm_solar_planning',
    evaluator: { kind: 'containing_attribute', source: 'blm_solar_planning', property: 'land_status', whenNotInside: 'not_blm_solar_planning_area' },
    enum: [
      'available',
      'avoidance',
      'excluded',
      'other',
      'drecp_cdca',
      'western_washington',
      'not_blm_solar_planning_area',
    ],
  }),
  f('golden_eagle_nest_density_index', 'float', '-', 'Y', 'Y', 'wnd', {
    description: 'Relative index of modeled golden eagle nest density at the point.',
    hints: 'Higher means more nests nearby, raising eagle-take permitting risk for wind projects.',
    null_meaning: outsideCoverage('golden eagle nest'),
    source: 'usfws_golden_eagle_nests',
    evaluator: { kind: 'grid_value', source: 'usfws_golden_eagle_nests' },
  }),
];
