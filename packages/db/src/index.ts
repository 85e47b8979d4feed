export { openDatabase, type DatabaseHandle, type DatabaseKind, type OpenDatabaseOptions } from './open.js';
export { PGliteDialect } from './pglite-dialect.js';
export { migrateSchema, migrationStatus, statements, MigrationError, type MigrationSet, type MigrationStatus } from './migrations.js';
export { Mutex } from './mutex.js';
export { PREPARED } from './prepared.js';
export { canCopyOut, copyOut, parseBinaryCopy } from './copy-out.js';
export { DEFAULT_DATABASE_TIMEOUTS, liftTimeouts, withoutTimeouts, type DatabaseTimeouts } from './timeouts.js';
export { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable, QueryTimeoutError } from './unavailable.js';
export { schemaView, type ProcessDatabase } from './process-database.js';
