import { sql, type Kysely, type Transaction } from 'kysely';

/**
 * How long PostgreSQL may take, so that a lost or partitioned server turns into a prompt error
 * instead of requests that hang for as long as the partition lasts. 0 disables a limit.
 */
export interface DatabaseTimeouts {
  /** Opening a connection, and waiting for a free one in the pool. */
  connectTimeoutMs: number;
  /** Server side (`statement_timeout`): a statement running longer is cancelled by PostgreSQL. */
  statementTimeoutMs: number;
  /**
   * Client side: a query with no answer by then has its connection dropped. Only this bounds a
   * black-holed connection (nothing answers, not even the server's own timeout), so it is a little
   * longer than the statement timeout, which says why when the server is still there.
   */
  queryTimeoutMs: number;
  /** An idle pooled connection is closed after this long. */
  idleTimeoutMs: number;
  /** TCP keepalive: idle time before the first probe of a connection's peer. */
  keepAliveMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = {
  connectTimeoutMs: 5_000,
  statementTimeoutMs: 30_000,
  queryTimeoutMs: 35_000,
  idleTimeoutMs: 10_000,
  keepAliveMs: 10_000,
};

/** Starts a statement that lifts the client-side query timeout of its connection (prepared.ts). */
export const UNBOUNDED_MARK = '/* unbounded */ ';

/**
 * Lifts both query timeouts for the rest of the transaction `trx`, for bulk work that is slow by
 * nature: a vintage import of a million parcels spends minutes in inserts, index builds and the
 * partition attach. The server-side limit goes with `set local`; the client-side one stays off
 * until the connection returns to the pool. PGlite has neither, and runs the statement harmlessly.
 */
export async function liftTimeouts<Database>(trx: Transaction<Database>): Promise<void> {
  await sql`${sql.raw(UNBOUNDED_MARK)}set local statement_timeout = 0`.execute(trx);
}

/**
 * Runs `work` on one connection of its own with both query timeouts lifted, outside any
 * transaction (migrations take their own, and may wait for another process's migration lock).
 * The session's statement timeout is restored before the connection goes back to the pool.
 */
export async function withoutTimeouts<T, Database>(db: Kysely<Database>, work: (connection: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.connection().execute(async (connection) => {
    await sql`${sql.raw(UNBOUNDED_MARK)}set statement_timeout = 0`.execute(connection);
    try {
      return await work(connection);
    } finally {
      // Fails only on a lost connection, which the pool then discards; `work`'s own error matters more.
      await sql`reset statement_timeout`.execute(connection).catch(() => {});
    }
  });
}
