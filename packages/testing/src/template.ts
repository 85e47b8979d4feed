import { MIGRATION_PLAN, migrateModules } from '@landscreen/cli';
import { openDatabase } from '@landscreen/db';
import { databaseUrl, dropStaleSuiteDatabases, TEMPLATE_DATABASE, withAdminClient } from './postgres.js';

/**
 * Builds the migrated template database every PostgreSQL suite is cloned from. Runs once per test
 * run (vitest globalSetup). Rebuilt each run so it always carries this build's migrations.
 */
export async function prepareTemplateDatabase(): Promise<void> {
  await dropStaleSuiteDatabases();
  await withAdminClient(async (client) => {
    await client.query(`drop database if exists ${TEMPLATE_DATABASE} with (force)`);
    await client.query(`create database ${TEMPLATE_DATABASE}`);
  });
  const handle = await openDatabase({ databaseUrl: databaseUrl(TEMPLATE_DATABASE), maxConnections: 1 });
  try {
    await migrateModules(handle, MIGRATION_PLAN);
  } finally {
    await handle.close();
  }
}
