// Public surface of @landscreen/demo-market: a deterministic synthetic market of parcels with
// plausible, correlated facts for every kind of buy-box rule (D36), for the `landscreen demo`
// command and for benchmarks.

export {
  generateDemoParcels,
  worldHalfSizeKm,
  DemoParcels,
  DEFAULT_MARKET,
  DEFAULT_PARCELS,
  DEFAULT_SEED,
  MAX_PARCELS,
  type DemoFeature,
  type DemoMarketOptions,
  type DemoPolygon,
} from './generate.js';
export { writeDemoGeoJson, type WriteDemoGeoJsonResult } from './write-geojson.js';
export { demoInfrastructure, type DemoInfrastructure, type DemoLayer, type FeatureCollection, type InfrastructureFeature } from './infrastructure.js';
export { Random, WeightedTable, hashInts } from './random.js';
export {
  DEMO_CATALOG_FIELDS,
  DEMO_FREE_FACT_FIELDS,
  DEMO_TYPED_FIELDS,
  LAND_USES,
  LISTING_STATUSES,
  ZONINGS,
  type LandUse,
  type ListingStatus,
  type Zoning,
} from './facts.js';
export { UNKNOWN_RATE } from './catalog-facts.js';
export { DEMO_CENTER, ringAreaSquareMeters } from './geo.js';
export { RAIL_SEARCH_KM, SUBSTATION_RADIUS_KM, TRANSMISSION_RADIUS_KM, WETLAND_SEARCH_KM } from './surroundings.js';
export {
  writeDemoLayers,
  DEMO_LAYERS_MANIFEST,
  type DemoLayersManifest,
  type WriteDemoLayersOptions,
} from './layers/write-demo-layers.js';
export type { DemoLayerFile, DemoLayerFormat } from './layers/types.js';
export { ISO_FOOTPRINTS } from './layers/sources/grid-networks.js';
export { demoLayerFormats } from './layers/recipes.js';
export { MARGIN_KM as DEMO_LAYERS_MARGIN_KM } from './layers/context.js';
