// Public surface of @landscreen/field-catalog: the point-data field catalog, the plan price
// list and the credit rules, as the spec "Point Data Field Catalog and Credit Pricing" gives them.

export * from './vocabulary.js';
export * from './fields.js';
export * from './plans.js';
export * from './catalog-page.js';
export * from './billing.js';
export * from './resolve-fields.js';
export * from './errors.js';
export { editDistance, closestMatch } from './suggest.js';
export { SOURCES, type SourceId } from './sources.js';
