// Public surface of @landscreen/field-catalog: the point-data field catalog, the plan price
// list and the credit rules, as the spec "Point Data Field Catalog and Credit Pricing" gives them.

export * from './vocabulary.js';
export * from './fields.js';
export * from './plans.js';
export * from './catalog-page.js';
export * from './billing.js';
export * from './resolve-fields.js';
export * from './errors.js';
export { editDistance, closestMatch } from './suggest.js';
export { SOURCES, type SourceId } from './sources.js';
// declareEvaluator stays internal: only the layer files declare evaluators.
export {
  PARCEL_OVERLAY_MEASURES,
  PARCEL_RECORD_ITEMS,
  evaluatorProperties,
  evaluatorSource,
  type Contains,
  type ContainingAttribute,
  type ContainingJoined,
  type ContainingRanked,
  type CountWithin,
  type Derived,
  type EvaluatorKind,
  type FeatureFilter,
  type FieldEvaluator,
  type GridValue,
  type MaxWithin,
  type NearestAttribute,
  type NearestDistance,
  type ParcelOverlay,
  type ParcelOverlayMeasure,
  type ParcelRecord,
  type ParcelRecordItem,
  type PolygonArea,
  type RadiusUsed,
  type SumWithin,
  type Terrain,
  type VoltageBasis,
} from './field-evaluator.js';
export { evaluatorOf } from './field-record.js';
export * from './layer-sources.js';
export { PARCEL_OVERLAYS, SOLAR_ACRES_PER_MWAC } from './layers/parcel-record.js';
export { describeEvaluator } from './describe-evaluator.js';
export * from './rounding.js';
