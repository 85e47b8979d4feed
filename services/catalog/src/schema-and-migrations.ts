// The catalog schema's tables and migrations alone (`@landscreen/catalog-service/schema`): what an
// operator command migrates and writes with, without the service's handlers, the engine and the
// layer readers that the package's main entry loads (about 0.7 CPU-seconds of a CLI's start).
export { SCHEMA, catalogDb, type CatalogDatabase, type CatalogDb, type CatalogTransaction } from './schema.js';
export { migrations } from './migrations/index.js';
