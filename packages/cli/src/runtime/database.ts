import path from 'node:path';
import type { Config } from '@landscreen/config';
import { openDatabase, type DatabaseHandle } from '@landscreen/db';

/** PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR/pgdata (the embedded default). */
export function openConfiguredDatabase(config: Config, maxConnections?: number): Promise<DatabaseHandle> {
  return openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pgdata'),
    maxConnections,
    timeouts: config.database,
  });
}
