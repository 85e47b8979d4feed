export { createCatalogService } from './service.js';
export { migrations } from './migrations/index.js';
export { SCHEMA } from './schema.js';
export { importLayer, type ImportLayerOptions, type ImportLayerResult } from './layers/import-layer.js';
export { LayerImportError } from './layers/layer-import-error.js';
export { listVersions, type LayerVersionRow } from './layers/versions.js';
export { LayerCache } from './layers/layer-cache.js';
export { startRunsWorker, ledgerRefund, type RunsWorker, type RunsWorkerOptions } from './runs/index.js';
export { setPlan, UnknownPlanIdError, quoteCredits, refundCredits, billedRequest, type Charge, type BillingStatus } from './billing/index.js';
