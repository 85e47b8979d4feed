import { randomBytes } from 'node:crypto';
import { openDatabase, type DatabaseHandle } from '@landscreen/db';
import { markTemplateUsed, templateDatabaseName } from './template.js';
import { databaseUrl, SUITE_PREFIX, withAdminClient } from './postgres-server.js';

export interface TestDatabase extends DatabaseHandle {
  url: string;
  name: string;
}

/** A fresh, migrated PostgreSQL database of its own; `close()` drops it. */
export async function createTestPostgres(): Promise<TestDatabase> {
  const name = `${SUITE_PREFIX}${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdminClient(async (client) => {
    await client.query(`create database ${name} template ${templateDatabaseName()}`);
    // Each clone marks the template as used: a run longer than an hour (a loaded machine) keeps
    // it, where a run of another build would drop a template marked only when its run started.
    await markTemplateUsed(client);
  });
  const url = databaseUrl(name);
  const handle = await openDatabase({ databaseUrl: url, maxConnections: 20 });
  return {
    ...handle,
    url,
    name,
    close: async () => {
      await handle.close();
      await withAdminClient((client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}
