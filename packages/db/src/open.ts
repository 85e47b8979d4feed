import { existsSync, mkdirSync, openAsBlob } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { dbPoolAcquireSeconds, observePool } from '@landscreen/telemetry';
import { PGliteDialect, pgliteLock } from './pglite-dialect.js';
import { PGLITE_PARSERS, PGLITE_SERIALIZERS } from './pglite-types.js';
import { registerPool } from './copy-out.js';
import { copyTemplateDataDir, templateTarball } from './pglite-template-files.js';
import { PreparingClient, type PreparingClientConfig } from './prepared.js';
import type { ProcessDatabase } from './process-database.js';
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts } from './timeouts.js';

export type DatabaseKind = 'postgres' | 'pglite';

/** The one database handle a process owns; services derive schema-scoped Kysely views from it. */
export interface DatabaseHandle {
  kind: DatabaseKind;
  db: ProcessDatabase;
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
  /** PostgreSQL's timeouts (DEFAULT_DATABASE_TIMEOUTS when absent); PGlite has none. */
  timeouts?: Partial<DatabaseTimeouts>;
  /**
   * PGlite: a template (ensurePGliteTemplate) that a directory holding no database yet, or the
   * in-memory database, starts from instead of running initdb (pglite-template.ts says why).
   */
  pgliteTemplate?: string;
}

const INT8_OID = 20;

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.maxConnections ?? 10, { ...DEFAULT_DATABASE_TIMEOUTS, ...options.timeouts });
  return openPGlite(options.pgliteDir, options.pgliteTemplate);
}

async function openPostgres(connectionString: string, max: number, timeouts: DatabaseTimeouts): Promise<DatabaseHandle> {
  const clientConfig: PreparingClientConfig = {
    connectionString,
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    // Sent with the startup message, so it holds for every statement without a round trip.
    statement_timeout: timeouts.statementTimeoutMs || undefined,
    clientQueryTimeoutMs: timeouts.queryTimeoutMs,
    keepAlive: timeouts.keepAliveMs > 0,
    keepAliveInitialDelayMillis: timeouts.keepAliveMs,
  };
  const pool = new pg.Pool({
    ...clientConfig,
    max,
    idleTimeoutMillis: timeouts.idleTimeoutMs,
    Client: PreparingClient,
    // Counts come back as int8; a count above 2^53 is not something this product meets.
    types: {
      getTypeParser: ((oid: number, format?: any) =>
        oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // A client that loses its server must not crash the process, whether it is idle in the pool
  // (the pool's own listener, then this 'error') or checked out: a request's client, a copy-out, a
  // transaction. The query in flight fails with the error, and the pool discards the client.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  // A lifted query timeout (liftTimeouts, withoutTimeouts) ends with the connection's checkout.
  pool.on('release', (_error: Error | undefined, client: pg.PoolClient) => void ((client as unknown as PreparingClient).unbounded = false));
  timeCheckouts(pool);
  const unobserve = observePool('postgres', () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }));
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  registerPool(db, pool);
  const url = new URL(connectionString);
  return {
    kind: 'postgres',
    db,
    describe: `postgresql://${url.host}${url.pathname}`,
    close: async () => {
      unobserve();
      await db.destroy();
    },
  };
}

/** The PGlite instance behind a handle, for what only PGlite can do (pglite-template.ts). */
const PGLITE_OF = new WeakMap<DatabaseHandle, PGlite>();

export function pgliteOf(handle: DatabaseHandle): PGlite | undefined {
  return PGLITE_OF.get(handle);
}

async function openPGlite(dataDir: string | undefined, template: string | undefined): Promise<DatabaseHandle> {
  const fresh = !dataDir || !existsSync(path.join(dataDir, 'PG_VERSION'));
  if (dataDir && fresh && template) copyTemplateDataDir(template, dataDir);
  else if (dataDir) mkdirSync(dataDir, { recursive: true });
  // Loaded only here: PGlite's JavaScript costs a process about 0.15-0.2 CPU-seconds to load,
  // which a process on PostgreSQL (a CLI command, a distributed service) never needs.
  const [{ PGlite }, { pg_trgm }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite/contrib/pg_trgm')]);
  const pglite = await PGlite.create({
    dataDir,
    extensions: { pg_trgm },
    parsers: PGLITE_PARSERS,
    serializers: PGLITE_SERIALIZERS,
    loadDataDir: !dataDir && template ? await openAsBlob(templateTarball(template)) : undefined,
  });
  const db = new Kysely<any>({ dialect: new PGliteDialect(pglite) });
  // One engine, one connection: busy while someone holds its lock, the rest queue on it.
  const lock = pgliteLock(pglite);
  const unobserve = observePool('pglite', () => ({ total: 1, idle: lock.held ? 0 : 1, waiting: lock.waiting }));
  const handle: DatabaseHandle = {
    kind: 'pglite',
    db,
    describe: dataDir ? `pglite:${path.relative(process.cwd(), dataDir) || '.'}` : 'pglite:memory',
    close: async () => {
      unobserve();
      await db.destroy();
      await pglite.close();
    },
  };
  PGLITE_OF.set(handle, pglite);
  return handle;
}

/**
 * Times every promise-style checkout (Kysely's, the copy-outs'): how long a caller waited for a
 * connection, which `waitingCount` alone (a snapshot at scrape time) cannot show.
 */
function timeCheckouts(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  pool.connect = ((...args: unknown[]) => {
    if (args.length > 0) return connect(...args);
    const waited = dbPoolAcquireSeconds.startTimer({ pool: 'postgres' });
    return (connect() as Promise<pg.PoolClient>).finally(waited);
  }) as typeof pool.connect;
}
