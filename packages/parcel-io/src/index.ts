// Public surface of @landscreen/parcel-io: streaming readers of parcel files, WKT, geodesic
// measurements, APN/address normalisation with pg_trgm-compatible similarity, and the mapping
// of a row's properties onto a parcel's typed, derived and free facts.

export type {
  BBox,
  GeoJSONGeometry,
  GeometryType,
  LineStringGeometry,
  MultiLineStringGeometry,
  MultiPointGeometry,
  MultiPolygonGeometry,
  ParcelFileFormat,
  PointGeometry,
  PolygonGeometry,
  Position,
  SourceRow,
} from './types.js';
export { ParcelRowError, GeometryError, WktError } from './errors.js';
export * from './readers/index.js';
export { parseWkt } from './wkt.js';
export {
  AUTHALIC_RADIUS_M,
  SQUARE_METRES_PER_ACRE,
  bbox,
  checkLonLat,
  geodesicAreaAcres,
  geodesicAreaM2,
  polygonAreaM2,
  representativePoint,
  validateGeometry,
} from './geometry.js';
export type { GeometryCheck } from './validate-geometry.js';
export { normaliseApn, normaliseAddress, trigrams, trigramSimilarity } from './normalise.js';
export { CoercionError, isBlank, toBoolean, toInteger, toNumber, toText } from './coerce.js';
export {
  ACRES_FORMULA,
  TYPED_FACT_FIELDS,
  TYPED_PROPERTIES,
  toParcelRecord,
  type ComputedProvenance,
  type ParcelRecord,
  type TypedFacts,
} from './mapping.js';
