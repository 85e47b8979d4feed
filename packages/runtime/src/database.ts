import path from 'node:path';
import type { Config } from '@landscreen/config';
import { openDatabase, type DatabaseHandle } from '@landscreen/db';

/** PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR/pgdata (the embedded default). */
export function openConfiguredDatabase(config: Config, maxConnections?: number, pgliteTemplate?: string): Promise<DatabaseHandle> {
  return openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: pgliteDir(config),
    maxConnections,
    timeouts: config.database,
    pgliteTemplate,
  });
}

export function pgliteDir(config: Config): string {
  return path.join(config.dataDir, 'pgdata');
}
