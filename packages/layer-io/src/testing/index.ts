// Test helpers other packages' tests use: the committed fixtures and independent geodesy.

export { COUNTIES, FIXTURES_DIR, PLANTS, fixture } from './fixtures.js';
export { haversineMetres, metresBetween } from './geodesy.js';
