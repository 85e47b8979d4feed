import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { dbPoolAcquireSeconds } from '@landscreen/telemetry';
import { Mutex } from './mutex.js';

/**
 * Kysely over PGlite. PGlite is one single-user backend, so the driver hands out its one
 * connection to one holder at a time: a transaction owns it from BEGIN to COMMIT and nothing else
 * interleaves. The lock lives with the PGlite instance so that every Kysely built on it shares it.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}

  createAdapter(): DialectAdapter {
    return new PGliteAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
  }
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler();
  }
}

/** PostgreSQL's adapter, as its own class so that a query can tell it runs on PGlite (isEmbedded). */
class PGliteAdapter extends PostgresAdapter {}

/** Whether this Kysely (or transaction) runs on PGlite in this process, not on a PostgreSQL server. */
export function isEmbedded(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PGliteAdapter;
}

const locks = new WeakMap<PGlite, Mutex>();

/** The one lock every Kysely view of this PGlite queues on (its queue is the pool gauges' "waiting"). */
export function pgliteLock(pglite: PGlite): Mutex {
  let mutex = locks.get(pglite);
  if (!mutex) locks.set(pglite, (mutex = new Mutex()));
  return mutex;
}

class PGliteDriver implements Driver {
  private readonly mutex: Mutex;
  private readonly connection: PGliteConnection;
  private readonly releases = new Map<DatabaseConnection, () => void>();

  constructor(pglite: PGlite) {
    this.mutex = pgliteLock(pglite);
    this.connection = new PGliteConnection(pglite);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const waited = dbPoolAcquireSeconds.startTimer({ pool: 'pglite' });
    const release = await this.mutex.acquire();
    waited();
    this.releases.set(this.connection, release);
    // PGlite runs each statement on this thread and answers by promise, and the lock passes from
    // holder to holder by promise: without a turn of the event loop here, a burst of queries (a
    // run's chunks, twenty report pages) ran back to back for seconds with no socket or timer let
    // in. One turn per holder lets requests waiting on the loop (/healthz) in between.
    await nextTurn();
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await connection.executeQuery(CompiledQuery.raw(`begin${isolation}`));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const release = this.releases.get(connection);
    this.releases.delete(connection);
    release?.();
  }

  // The PGlite instance is owned (and closed) by whoever created it, not by Kysely.
  async destroy(): Promise<void> {}
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pglite.query<R>(compiled.sql, [...compiled.parameters]);
    return {
      rows: result.rows,
      numAffectedRows: result.affectedRows === undefined ? undefined : BigInt(result.affectedRows),
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    // PGlite materialises results anyway; stream them as one chunk.
    yield await this.executeQuery<R>(compiled);
  }
}
