// How each catalog field is computed from the loaded layers (D36). Every field record
// declares one evaluator beside it in its layer file; the evaluator is internal: it is kept in a
// registry keyed by the frozen record, never on the record, so the public catalog page
// (GET /v1/meta/fields) stays exactly the spec's shape.

import type { SourceId } from './sources.js';

/**
 * Keeps a feature when the property's value, as a lower-cased string, is one of `oneOf` (also
 * lower-cased): files spell statuses and flags in every case, and CSV cells are all strings.
 */
export interface FeatureFilter {
  readonly property: string;
  readonly oneOf: readonly (string | number | boolean)[];
}

interface OnLayer {
  readonly source: SourceId;
  /** General value rule 5: null (`outside_conus`) outside the contiguous United States. */
  readonly conusOnly?: boolean;
}

/** Meters to the nearest feature (0 inside a polygon); null past `maxDistanceM` (rule 2). */
export interface NearestDistance extends OnLayer {
  readonly kind: 'nearest_distance';
  readonly maxDistanceM?: number;
  readonly filter?: FeatureFilter;
}

/** A property of the nearest feature (the same feature nearest_distance measures). */
export interface NearestAttribute extends OnLayer {
  readonly kind: 'nearest_attribute';
  readonly property: string;
  readonly maxDistanceM?: number;
  readonly filter?: FeatureFilter;
}

/** How the transmission line nearest the point publishes its voltage: numeric, class_band, not_published. */
export interface VoltageBasis extends OnLayer {
  readonly kind: 'voltage_basis';
  readonly numberProperty: string;
  readonly classProperty: string;
}

/** Features within `radiusM` (0 when none, rule 3). */
export interface CountWithin extends OnLayer {
  readonly kind: 'count_within';
  readonly radiusM: number;
  readonly filter?: FeatureFilter;
}

/** Sum of a numeric property over the features within `radiusM`, optionally per km² of the disc. */
export interface SumWithin extends OnLayer {
  readonly kind: 'sum_within';
  readonly property: string;
  readonly radiusM: number;
  readonly perSquareKm?: boolean;
}

/** The radius a count of `source` used; null (no_coverage) only when that index is not loaded. */
export interface RadiusUsed {
  readonly kind: 'radius_used';
  readonly radiusM: number;
  /** The counted source; absent when the radius serves several sources and is always answered. */
  readonly source?: SourceId;
}

/**
 * The highest `property` among the features within `radiusM`; `rank` orders values: `number`
 * numerically, `voltage_class` by the first number of a class band ("UNDER 100" ranks below
 * "100-161"; bands without a number, such as "DC" or "NOT AVAILABLE", are not ranked).
 */
export interface MaxWithin extends OnLayer {
  readonly kind: 'max_within';
  readonly property: string;
  readonly radiusM: number;
  readonly rank: 'number' | 'voltage_class';
}

/** Whether the point is inside (or on the edge of) a feature polygon of the source. */
export interface Contains extends OnLayer {
  readonly kind: 'contains';
  readonly filter?: FeatureFilter;
}

/**
 * A property of the polygon containing the point (the smallest when polygons overlap);
 * `whenNotInside` is the value the field answers for a covered point in no polygon (for example
 * `none` airspace), else null `not_inside`; `as: 'positive'` answers whether the number is > 0.
 */
export interface ContainingAttribute extends OnLayer {
  readonly kind: 'containing_attribute';
  readonly property: string;
  readonly filter?: FeatureFilter;
  readonly whenNotInside?: string;
  readonly as?: 'positive';
}

/**
 * The worst `property` among the containing polygons, `rank` listing values worst first;
 * `blankWhenOnlyUnfiltered`: '' when the point is inside polygons of the source but none passes
 * the filter (air quality: maintenance-only points).
 */
export interface ContainingRanked extends OnLayer {
  readonly kind: 'containing_ranked';
  readonly property: string;
  readonly rank: readonly string[];
  readonly filter?: FeatureFilter;
  readonly blankWhenOnlyUnfiltered?: boolean;
}

/** The distinct values of `property` over every containing polygon, sorted, joined with ", ". */
export interface ContainingJoined extends OnLayer {
  readonly kind: 'containing_joined';
  readonly property: string;
  readonly filter?: FeatureFilter;
}

/** Area of the whole containing polygon (rule 4: not a share of anything). */
export interface PolygonArea extends OnLayer {
  readonly kind: 'polygon_area';
  readonly unit: 'acres' | 'square_meters';
}

/** The grid's band at the point (bilinear, see docs/layers.md). */
export interface GridValue extends OnLayer {
  readonly kind: 'grid_value';
  readonly round?: 'integer';
}

/** Horn's method on the 3x3 cells around the point's cell. */
export interface Terrain extends OnLayer {
  readonly kind: 'slope_degrees' | 'aspect_degrees' | 'aspect_cardinal';
}

/** The spec's derivations: `input` x `factor`, null when the input is null. */
export interface Derived {
  readonly kind: 'derived';
  readonly formula_version: 1;
  readonly input: string;
  readonly factor: number;
}

export const PARCEL_RECORD_ITEMS = [
  'geometry_wkt',
  'boundary_geojson',
  'id',
  'apn',
  'area_m2',
  'address',
  'data_source',
  'owner',
  'zoning',
  'match_type',
  'match_distance_m',
  'match_radius_m',
] as const;
export type ParcelRecordItem = (typeof PARCEL_RECORD_ITEMS)[number];

/** A fact of the matched parcel (exact intersect, else nearest within the bounded radius). */
export interface ParcelRecord {
  readonly kind: 'parcel_record';
  readonly item: ParcelRecordItem;
}

export const PARCEL_OVERLAY_MEASURES = [
  'wetland_acres_on_parcel',
  'wetland_fraction_of_parcel',
  'easement_acres_on_parcel',
  'easement_fraction_of_parcel',
  'developable_acres_proxy',
  'onsite_solar_potential_mwac_low',
  'onsite_solar_potential_mwac_high',
] as const;
export type ParcelOverlayMeasure = (typeof PARCEL_OVERLAY_MEASURES)[number];

/**
 * A measure of the matched parcel's polygon against polygon layers; `sources` are the layers it
 * overlays (all must be loaded), `formula` the definition (formula_version 1).
 */
export interface ParcelOverlay {
  readonly kind: 'parcel_overlay';
  readonly formula_version: 1;
  readonly measure: ParcelOverlayMeasure;
  readonly sources: readonly SourceId[];
  readonly formula: string;
}

export type FieldEvaluator =
  | NearestDistance
  | NearestAttribute
  | VoltageBasis
  | CountWithin
  | SumWithin
  | RadiusUsed
  | MaxWithin
  | Contains
  | ContainingAttribute
  | ContainingRanked
  | ContainingJoined
  | PolygonArea
  | GridValue
  | Terrain
  | Derived
  | ParcelRecord
  | ParcelOverlay;

export type EvaluatorKind = FieldEvaluator['kind'];

/** The layer source an evaluator reads, if it reads exactly one. */
export function evaluatorSource(evaluator: FieldEvaluator): SourceId | undefined {
  return 'source' in evaluator ? evaluator.source : undefined;
}

/** Every property of its source an evaluator reads (filters included). */
export function evaluatorProperties(evaluator: FieldEvaluator): string[] {
  const read: string[] = [];
  if ('property' in evaluator) read.push(evaluator.property);
  if (evaluator.kind === 'voltage_basis') read.push(evaluator.numberProperty, evaluator.classProperty);
  if ('filter' in evaluator && evaluator.filter) read.push(evaluator.filter.property);
  return read;
}
