export { createDiscoveryService } from './service.js';
export { migrations } from './migrations/index.js';
export { SCHEMA } from './schema.js';
export { ensureMarket, entitle, findMarket, DiscoveryInputError } from './operations/markets.js';
export { discoveryDb, type DiscoveryDb, type DiscoveryTransaction } from './schema.js';
export { importVintage, type ImportProgress, type ImportResult } from './operations/import-vintage.js';
export { deriveVintage, type BaseVintage, type DeriveVintageOptions } from './operations/derive-vintage.js';
export { fieldProvenanceOf, preparedEntry, type FieldProvenance, type PreparedProvenance } from './field-provenance.js';
export { provenanceOf } from './parcel-rows.js';
