export { createPipelineService } from './service.js';
export { migrations } from './migrations/index.js';
export { SCHEMA } from './schema.js';
