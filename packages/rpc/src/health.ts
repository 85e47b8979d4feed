import type { Kysely } from 'kysely';
import { migrationStatus, type MigrationSet } from '@landscreen/db';

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
        reason: `database unavailable: ${(error as Error).message}`,
        schema,
        appliedMigrations: [],
        expectedMigrations: Object.keys(migrations).sort(),
      };
    }
  };
}
