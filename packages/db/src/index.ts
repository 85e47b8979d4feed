export { openDatabase, type DatabaseHandle, type DatabaseKind, type OpenDatabaseOptions } from './open.js';
export { PGliteDialect } from './pglite-dialect.js';
export { migrateSchema, migrationStatus, statements, MigrationError, type MigrationSet, type MigrationStatus } from './migrations.js';
export { Mutex } from './mutex.js';
export { PREPARED } from './prepared.js';
export { canCopyOut, copyOut, parseBinaryCopy } from './copy-out.js';
