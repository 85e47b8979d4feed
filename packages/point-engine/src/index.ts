// Public surface of @landscreen/point-engine: layer indexes built from features or grids in
// WGS84, and the engine that answers catalog fields at points from the current layer of each
// source. Pure and in memory: readers, storage and transport live elsewhere.

export { Engine, buildGridLayer, buildGridMosaic, buildVectorLayer, type EvaluateOptions, type HeldGridBlocks, type LayerIndex, type Location } from './engine.js';
export {
  NULL_REASONS,
  NULL_REASON_MEANINGS,
  EngineAnswer,
  type AnswerRowSink,
  type FieldValue,
  type LayerRef,
  type LocationAnswer,
  type NullReason,
  type Provenance,
} from './answers.js';
export { Hits, VectorLayerIndex, type FeatureInput } from './vector-index.js';
export type { VectorLayerSnapshot } from './layer-snapshot.js';
export { deriveParts, TREE_NODE_SIZE, type VectorLayerParts } from './vector-parts.js';
export { GridLayerIndex, compassPoint, type GridInput, type GridMosaicInput, type HeldBlocks } from './grid-index.js';
export type { GridTileInput } from './grid-tile.js';
export { GridBlocksNotLoadedError, ResidentBlocks, type GridBlock, type GridBlockStore } from './grid-blocks.js';
export type { Geometry, PackedShape, PolygonalGeometry, Position } from './geometry.js';
export type { MatchedParcel, ParcelMatch } from './parcel-fields.js';
export { compilePlan, type EvaluationPlan } from './plan.js';
export { CONUS_OUTLINE, isInConus } from './conus.js';
export { distanceM, vincentyM, rulerAt, type Ruler } from './geodesy.js';
export { geodesicAreaM2, SQUARE_METERS_PER_ACRE } from './polygon-area.js';
export { LayerBuildError, UnknownFieldError } from './errors.js';
