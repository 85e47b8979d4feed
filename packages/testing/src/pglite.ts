import { MIGRATION_PLAN, migratedPGliteTemplate } from '@landscreen/runtime';
import { openDatabase, type DatabaseHandle } from '@landscreen/db';

/**
 * A fresh in-memory PGlite database with every schema migrated: the embedded default's engine.
 * It starts from the migrated template of these migrations (written by the first suite that needs
 * it), not from initdb and every migration: about 1.5 CPU-seconds instead of 9 a suite.
 */
export async function createTestPGlite(): Promise<DatabaseHandle> {
  return openDatabase({ pgliteTemplate: await preparePGliteTemplate() });
}

/** The migrated PGlite template of these migrations, written when there is none (vitest's globalSetup does it once). */
export function preparePGliteTemplate(): Promise<string> {
  return migratedPGliteTemplate(MIGRATION_PLAN);
}
