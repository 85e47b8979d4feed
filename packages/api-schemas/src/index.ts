// The REST response schemas of the public API, by resource: one declaration for the
// gateway's route table and /openapi.json, the workers reading the API and the tests' check of
// every answer. Each schema is exported with its `Static<>` type under the same name.
export * from './building-blocks.js';
export * from './errors.js';
export * from './auth.js';
export * from './buyboxes.js';
export * from './discovery.js';
export * from './pipeline.js';
export * from './leads.js';
export * from './diligence.js';
export * from './catalog.js';
export * from './runs.js';
export * from './internal.js';
export * from './health.js';
export * from './parcel-evaluation.js';
