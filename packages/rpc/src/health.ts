import type { Kysely } from 'kysely';
import { isDatabaseUnavailable, migrationStatus, type MigrationSet } from '@landscreen/db';

/** The Health RPC shared by every service: database reachable and migrations exactly this build's. */
export function healthCheck(db: Kysely<any>, schema: string, migrations: MigrationSet) {
  return async () => {
    try {
      const status = await migrationStatus(db, schema, migrations);
      return {
        ready: status.ready,
        reason: status.reason,
        schema,
        appliedMigrations: status.applied,
        expectedMigrations: status.expected,
      };
    } catch (error) {
      return {
        ready: false,
        reason: databaseProblem(error),
        schema,
        appliedMigrations: [],
        expectedMigrations: Object.keys(migrations).sort(),
      };
    }
  };
}

/**
 * /readyz is public: it says what is wrong in a sentence with the driver's code (a SQLSTATE or a
 * socket error), never the driver's own text, which can name hosts, roles and relations.
 */
function databaseProblem(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const named = typeof code === 'string' && /^[A-Z0-9_]{3,40}$/.test(code) ? ` (${code})` : '';
  return isDatabaseUnavailable(error)
    ? `database unavailable${named}: the database cannot be reached or is not accepting connections`
    : `database unavailable${named}: the database answered the readiness check with an error`;
}
