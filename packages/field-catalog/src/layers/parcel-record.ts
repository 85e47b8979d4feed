// Spec: "Parcel-record fields (metered group parcel_record)". Every member is layer parcels,
// nullable, ttl D and priced once per location by plan instead of per field.

import type { ParcelOverlay, ParcelOverlayMeasure } from '../field-evaluator.js';
import { parcelRecordField as p, type FieldRecord } from '../field-record.js';

const NO_PARCEL =
  'No parcel was found at the point or within the bounded search radius, or the parcel index is unavailable.';
// The spec says premium parcel fields are null on the free vendor tier without saying which
// fields are premium; the vendor-supplied attributes carry the caveat, the match facts do not.
const NO_PARCEL_OR_FREE_TIER = `${NO_PARCEL} Premium parcel attributes can also be null when parcel_data_source is vendor_free_tier.`;
const UNDEFINED_IN_SPEC =
  'A member of the parcel_record group that the spec names without a definition';

/** Utility-scale PV land use, acres per MWac: the dense (high) and the roomy (low) end. */
export const SOLAR_ACRES_PER_MWAC = Object.freeze({ high: 5, low: 7 });

const WETLANDS_ON_PARCEL =
  'area of the parcel polygon covered by the union of the usfws_nwi wetland polygons (geodesic area of the intersection), in acres';
const EASEMENTS_ON_PARCEL =
  'area of the parcel polygon covered by the union of the nced_easements polygons (geodesic area of the intersection), in acres';
const DEVELOPABLE =
  'parcel acres minus the acres of the parcel covered by the union of wetlands (usfws_nwi), conservation easements (nced_easements) and special flood hazard areas (fema_nfhl)';

const overlay = (measure: ParcelOverlayMeasure, sources: ParcelOverlay['sources'], formula: string): ParcelOverlay => ({
  kind: 'parcel_overlay',
  formula_version: 1,
  measure,
  sources,
  formula,
});

/**
 * The parcel-overlay members the spec names without defining them: our definitions, formula
 * version 1 (docs/layers.md). They are computed on the matched parcel's polygon, so they need
 * the parcel and every overlaid layer.
 */
export const PARCEL_OVERLAYS: Readonly<Record<ParcelOverlayMeasure, ParcelOverlay>> = Object.freeze({
  wetland_acres_on_parcel: overlay('wetland_acres_on_parcel', ['usfws_nwi'], WETLANDS_ON_PARCEL),
  wetland_fraction_of_parcel: overlay(
    'wetland_fraction_of_parcel',
    ['usfws_nwi'],
    `(${WETLANDS_ON_PARCEL}) / parcel acres, from 0 to 1`,
  ),
  easement_acres_on_parcel: overlay('easement_acres_on_parcel', ['nced_easements'], EASEMENTS_ON_PARCEL),
  easement_fraction_of_parcel: overlay(
    'easement_fraction_of_parcel',
    ['nced_easements'],
    `(${EASEMENTS_ON_PARCEL}) / parcel acres, from 0 to 1`,
  ),
  developable_acres_proxy: overlay(
    'developable_acres_proxy',
    ['usfws_nwi', 'nced_easements', 'fema_nfhl'],
    DEVELOPABLE,
  ),
  onsite_solar_potential_mwac_low: overlay(
    'onsite_solar_potential_mwac_low',
    ['usfws_nwi', 'nced_easements', 'fema_nfhl'],
    `developable_acres_proxy / ${SOLAR_ACRES_PER_MWAC.low} acres per MWac`,
  ),
  onsite_solar_potential_mwac_high: overlay(
    'onsite_solar_potential_mwac_high',
    ['usfws_nwi', 'nced_easements', 'fema_nfhl'],
    `developable_acres_proxy / ${SOLAR_ACRES_PER_MWAC.high} acres per MWac`,
  ),
});

/** The 12 members the spec's parcel-record table defines, in its order. */
const DEFINED: readonly FieldRecord[] = [
  p('parcel_geometry_wkt', 'string', '-', 'sit', {
    description: 'Boundary of the parcel matched to the point, as a single WKT POLYGON in WGS84.',
    hints: 'For multi-part parcels use parcel_boundary_geojson, which keeps every part.',
    null_meaning: NO_PARCEL,
    source: 'parcel_vendor',
    evaluator: { kind: 'parcel_record', item: 'geometry_wkt' },
  }),
  p('parcel_boundary_geojson', 'string', '-', 'sit', {
    description: 'Boundary of the matched parcel as a GeoJSON geometry serialised to a string, keeping every part of a multi-polygon.',
    hints: 'A JSON string: parse it before use.',
    null_meaning: NO_PARCEL,
    source: 'parcel_vendor',
    evaluator: { kind: 'parcel_record', item: 'boundary_geojson' },
  }),
  p('parcel_id', 'string', '-', 'sit', {
    description: 'Identifier of the matched parcel in the parcel dataset.',
    null_meaning: NO_PARCEL,
    source: 'parcel_vendor',
    evaluator: { kind: 'parcel_record', item: 'id' },
  }),
  p('parcel_apn', 'string', '-', '-', {
    description: "Assessor's parcel number of the matched parcel.",
    null_meaning: NO_PARCEL_OR_FREE_TIER,
    source: 'parcel_vendor',
    evaluator: { kind: 'parcel_record', item: 'apn' },
  }),
  p('parcel_area_m2', 'float', 'square_meters', 'sit', {
    description: 'Area of the matched parcel, in square meters.',
    null_meaning: NO_PARCEL,
    source: 'parcel_vendor',
    evaluator: { kind: 'parcel_record', item: 'area_m2' },
  }),
  p('parcel_address', 'string', '-', '-', {
    description: 'Situs (street) address of the matched parcel.',
    null_meaning: NO_PARCEL_OR_FREE_TIER,
    source: 'parcel_vendor',
    evaluator: { kind: 'parcel_record', item: 'address' },
  }),
  p('parcel_data_source', 'string', '-', '-', {
    description: 'Parcel data tier the matched record came from.',
    hints: 'Premium parcel fields are null on vendor_free_tier.',
    null_meaning: NO_PARCEL,
    source: 'parcel_vendor',
    evaluator: { kind: 'parcel_record', item: 'data_source' },
    enum: ['vendor_paid', 'vendor_free_tier'],
  }),
  p('parcel_owner', 'string', '-', '-', {
    description: 'Owner name of the matched parcel, as recorded by the assessor.',
    null_meaning: NO_PARCEL_OR_FREE_TIER,
    source: 'parcel_vendor',
    evaluator: { kind: 'parcel_record', item: 'owner' },
  }),
  p('parcel_zoning', 'string', '-', 'sit', {
    description: 'Zoning code of the matched parcel, as published by the local jurisdiction.',
    null_meaning: NO_PARCEL_OR_FREE_TIER,
    source: 'parcel_vendor',
    evaluator: { kind: 'parcel_record', item: 'zoning' },
  }),
  p('parcel_match_type', 'string', '-', '-', {
    description: 'How the parcel was matched: the parcel containing the point, or the nearest parcel within the bounded radius.',
    null_meaning: NO_PARCEL,
    source: 'parcel_vendor',
    evaluator: { kind: 'parcel_record', item: 'match_type' },
    enum: ['exact_intersect', 'nearest_within_radius'],
  }),
  p('parcel_match_distance_m', 'float', 'meters', '-', {
    description: 'Distance from the point to the matched parcel, in meters; 0 for exact matches.',
    null_meaning: NO_PARCEL,
    source: 'parcel_vendor',
    evaluator: { kind: 'parcel_record', item: 'match_distance_m' },
  }),
  p('parcel_match_radius_m', 'float', 'meters', '-', {
    description: 'Search radius used to match the parcel, in meters; 0 for exact matches.',
    null_meaning: NO_PARCEL,
    source: 'parcel_vendor',
    evaluator: { kind: 'parcel_record', item: 'match_radius_m' },
  }),
];

/**
 * The 7 members the spec's "Catalog coverage" names without a definition. Type float and the
 * units are our reading of the names; the descriptions say so rather than pretend otherwise.
 */
const NAMED_ONLY: readonly FieldRecord[] = [
  p('developable_acres_proxy', 'float', 'acres', '-', {
    description: `${UNDEFINED_IN_SPEC}; by its name, a proxy for the developable area of the matched parcel, in acres.`,
    null_meaning: NO_PARCEL,
    source: 'derived',
    evaluator: PARCEL_OVERLAYS.developable_acres_proxy,
  }),
  p('easement_acres_on_parcel', 'float', 'acres', '-', {
    description: `${UNDEFINED_IN_SPEC}; by its name, the conservation-easement area inside the matched parcel, in acres.`,
    hints: 'Unlike easement_acres, which is the size of the whole easement polygon.',
    null_meaning: NO_PARCEL,
    source: 'derived',
    evaluator: PARCEL_OVERLAYS.easement_acres_on_parcel,
  }),
  p('easement_fraction_of_parcel', 'float', '-', '-', {
    description: `${UNDEFINED_IN_SPEC}; by its name, the share of the matched parcel covered by conservation easements, from 0 to 1.`,
    null_meaning: NO_PARCEL,
    source: 'derived',
    evaluator: PARCEL_OVERLAYS.easement_fraction_of_parcel,
  }),
  p('onsite_solar_potential_mwac_high', 'float', 'MWac', '-', {
    description: `${UNDEFINED_IN_SPEC}; by its name, the high estimate of solar capacity that fits on the matched parcel, in MWac.`,
    null_meaning: NO_PARCEL,
    source: 'derived',
    evaluator: PARCEL_OVERLAYS.onsite_solar_potential_mwac_high,
  }),
  p('onsite_solar_potential_mwac_low', 'float', 'MWac', '-', {
    description: `${UNDEFINED_IN_SPEC}; by its name, the low estimate of solar capacity that fits on the matched parcel, in MWac.`,
    null_meaning: NO_PARCEL,
    source: 'derived',
    evaluator: PARCEL_OVERLAYS.onsite_solar_potential_mwac_low,
  }),
  p('wetland_acres_on_parcel', 'float', 'acres', '-', {
    description: `${UNDEFINED_IN_SPEC}; by its name, the mapped wetland area inside the matched parcel, in acres.`,
    hints: 'Unlike wetland_acres, which is the size of the whole wetland polygon.',
    null_meaning: NO_PARCEL,
    source: 'derived',
    evaluator: PARCEL_OVERLAYS.wetland_acres_on_parcel,
  }),
  p('wetland_fraction_of_parcel', 'float', '-', '-', {
    description: `${UNDEFINED_IN_SPEC}; by its name, the share of the matched parcel covered by mapped wetlands, from 0 to 1.`,
    null_meaning: NO_PARCEL,
    source: 'derived',
    evaluator: PARCEL_OVERLAYS.wetland_fraction_of_parcel,
  }),
];

export const PARCEL_RECORD_FIELDS: readonly FieldRecord[] = [...DEFINED, ...NAMED_ONLY];
