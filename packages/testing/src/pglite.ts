import { MIGRATION_PLAN, migrateModules } from '@landscreen/cli';
import { openDatabase, type DatabaseHandle } from '@landscreen/db';

/** A fresh in-memory PGlite database with every schema migrated: the embedded default's engine. */
export async function createTestPGlite(): Promise<DatabaseHandle> {
  const handle = await openDatabase({});
  await migrateModules(handle, MIGRATION_PLAN);
  return handle;
}
