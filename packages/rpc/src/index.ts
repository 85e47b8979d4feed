export * from './errors.js';
export * from './clock.js';
export * from './logger.js';
export * from './module.js';
export * from './health.js';
export * from './transports.js';
export * from './serve.js';
export * from './json-body.js';
