export { createDiscoveryService } from './service.js';
export { migrations } from './migrations/index.js';
export { SCHEMA } from './schema.js';
export { ensureMarket, entitle, findMarket, DiscoveryInputError } from './operations/markets.js';
export { discoveryDb, type DiscoveryDb, type DiscoveryTransaction } from './schema.js';
export { importVintage, type ImportProgress, type ImportResult } from './operations/import-vintage.js';
export { deriveVintage, type BaseVintage, type DeriveVintageOptions } from './operations/derive-vintage.js';
export { baseChunkPages, type StoredBase } from './operations/base-chunk.js';
export {
  abandonPreparedVintage,
  baseOfJob,
  failPreparedJob,
  finishPreparedVintage,
  openPreparedVintage,
  preparedChunksDone,
  preparedJob,
  PreparedVintageGone,
  PrepareLayersChanged,
  settleLayerVersions,
  settleProvenanceDecision,
  writePreparedChunk,
  type ChunkOutcome,
  type ColumnarPage,
  type PrepareJob,
} from './operations/prepared-vintage.js';
export { fieldProvenanceOf, preparedEntry, type FieldProvenance, type PreparedProvenance } from './field-provenance.js';
export { provenanceOf } from './parcel-rows.js';
export { desiredReplica, type WeightedReplica } from './placement/rendezvous.js';
// What a replica holds of a vintage, loaded as it loads it and counted as its budget counts it (benchmarks).
export { loadVintageIndex } from './ranking/column-store.js';
export { rank, rankSpecOf, specFields } from './ranking/rank.js';
export { encodeIndexFile, readIndexFile } from './ranking/index-file.js';
export { restoreIndex, type VintageIndex } from './ranking/vintage-index.js';
export { decodeNumbers } from './ranking/numeric-codes.js';
export { valueAt } from './ranking/columns.js';
export { loadParcelIndex } from './locate/load-parcel-index.js';
export { columnBytes, keyBytes, vintageIndexBytes } from './memory/index-sizes.js';
