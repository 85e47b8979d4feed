import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { withoutTimeouts } from './timeouts.js';

/** A service's migrations, by timestamped name, listed explicitly (no directory scanning). */
export type MigrationSet = Record<string, Migration>;

export const MIGRATION_TABLE = 'kysely_migration';
const MIGRATION_LOCK_TABLE = 'kysely_migration_lock';

export class MigrationError extends Error {
  constructor(readonly schema: string, readonly migration: string | undefined, cause: unknown) {
    super(`migration ${migration ?? '(setup)'} of schema "${schema}" failed: ${String((cause as Error)?.message ?? cause)}`, { cause });
    this.name = 'MigrationError';
  }
}

function migratorFor(db: Kysely<any>, schema: string, migrations: MigrationSet): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: schema,
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
  });
}

/**
 * Brings `schema` up to date, answering the migrations it applied; throws (never logs-and-continues) when a migration fails. Without
 * query timeouts: a migration may build an index over millions of rows, or wait for another
 * process's migration lock.
 */
export async function migrateSchema(db: Kysely<any>, schema: string, migrations: MigrationSet): Promise<string[]> {
  // Up to date is the common case (every start, every CLI command): two queries answer it, where
  // the Migrator introspects every table of the database several times to set itself up (on
  // PGlite, about a CPU-second over the five schemas).
  if ((await migrationStatus(db, schema, migrations)).ready) return [];
  const { error, results } = await withoutTimeouts(db, (connection) => migratorFor(connection, schema, migrations).migrateToLatest());
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    throw new MigrationError(schema, failed?.migrationName, error);
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

export interface MigrationStatus {
  ready: boolean;
  reason: string;
  applied: string[];
  expected: string[];
}

/** D32: ready only when the applied migrations are exactly those this build ships. */
export async function migrationStatus(db: Kysely<any>, schema: string, migrations: MigrationSet): Promise<MigrationStatus> {
  const expected = Object.keys(migrations).sort();
  const table = await sql<{ exists: boolean }>`select to_regclass(${`"${schema}".${MIGRATION_TABLE}`}) is not null as exists`.execute(db);
  if (!table.rows[0]?.exists) {
    return { ready: false, reason: `schema "${schema}" is not migrated`, applied: [], expected };
  }
  const rows = await db.withSchema(schema).selectFrom(MIGRATION_TABLE).select('name').orderBy('name').execute();
  const applied = rows.map((row) => row.name as string);
  const missing = expected.filter((name) => !applied.includes(name));
  const unknown = applied.filter((name) => !expected.includes(name));
  const problems = [
    missing.length ? `pending migrations: ${missing.join(', ')}` : '',
    unknown.length ? `migrations unknown to this build: ${unknown.join(', ')}` : '',
  ].filter(Boolean);
  return { ready: problems.length === 0, reason: problems.join('; '), applied, expected };
}

/** A migration step made of plain SQL statements, run in order. */
export function statements(...sqlStatements: string[]): (db: Kysely<any>) => Promise<void> {
  return async (db) => {
    for (const statement of sqlStatements) await sql.raw(statement).execute(db);
  };
}
