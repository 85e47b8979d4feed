import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect.js';
import { registerPool } from './copy-out.js';
import { PreparingClient } from './prepared.js';

export type DatabaseKind = 'postgres' | 'pglite';

/** The one database handle a process owns; services derive schema-scoped Kysely views from it. */
export interface DatabaseHandle {
  kind: DatabaseKind;
  db: Kysely<any>;
  /** Human-readable location, for logs (never includes a password). */
  describe: string;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string. When absent, PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory; `undefined` keeps the database in memory (tests). */
  pgliteDir?: string;
  /** Pool size for PostgreSQL. */
  maxConnections?: number;
}

const INT8_OID = 20;

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.maxConnections ?? 10);
  return openPGlite(options.pgliteDir);
}

async function openPostgres(connectionString: string, max: number): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString,
    max,
    Client: PreparingClient,
    // Counts come back as int8; a count above 2^53 is not something this product meets.
    types: {
      getTypeParser: ((oid: number, format?: any) =>
        oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => {});
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  registerPool(db, pool);
  const url = new URL(connectionString);
  return {
    kind: 'postgres',
    db,
    describe: `postgresql://${url.host}${url.pathname}`,
    close: () => db.destroy(),
  };
}

async function openPGlite(dataDir: string | undefined): Promise<DatabaseHandle> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pglite = await PGlite.create({
    dataDir,
    extensions: { pg_trgm },
    parsers: { [INT8_OID]: (value: string) => Number(value) },
  });
  const db = new Kysely<any>({ dialect: new PGliteDialect(pglite) });
  return {
    kind: 'pglite',
    db,
    describe: dataDir ? `pglite:${path.relative(process.cwd(), dataDir) || '.'}` : 'pglite:memory',
    close: async () => {
      await db.destroy();
      await pglite.close();
    },
  };
}
