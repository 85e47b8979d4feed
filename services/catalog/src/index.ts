export { createCatalogService } from './service.js';
export { migrations } from './migrations/index.js';
export { SCHEMA } from './schema.js';
export { importLayer, type ImportLayerOptions, type ImportLayerResult } from './layers/import-layer.js';
export { LayerImportError } from './layers/layer-import-error.js';
export { listVersions, type LayerVersionRow } from './layers/versions.js';
export { LayerCache } from './layers/layer-cache.js';
