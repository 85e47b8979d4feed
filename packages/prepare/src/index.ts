export { prepareMarket, WORKERS_FROM_PARCELS, type PrepareOptions, type PrepareResult } from './prepare-market.js';
export { DEFAULT_ENGINE_WORKERS } from './engine-pool.js';
export { NoLayersError, preparedFields, sourcesOf, type PreparedFields } from './prepare-fields.js';
export { prepareOnWorkers, type ChunkProgress, type PrepareOnWorkersOptions } from './workers/prepare-on-workers.js';
export { startPrepareWorker, type PrepareWorker, type PrepareWorkerOptions } from './workers/prepare-worker.js';
