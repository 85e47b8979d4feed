import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './open.js';
import { migrateSchema } from './migrations.js';
import { liftTimeouts, withoutTimeouts } from './timeouts.js';
import { isDatabaseUnavailable, QueryTimeoutError } from './unavailable.js';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const failureOf = (work: Promise<unknown>) => work.then(() => undefined, (error: unknown) => error);

/** The backends of this test's pool, told apart from others by their application_name. */
async function terminate(admin: DatabaseHandle, applicationName: string) {
  await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${applicationName}`.execute(admin.db);
}

/** How many backends of this test's pool run `query` now, or exist at all. */
async function backends(admin: DatabaseHandle, applicationName: string, query?: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
    where application_name = ${applicationName} and (${query ?? null}::text is null or (state = 'active' and query = ${query ?? null}))`.execute(admin.db);
  return rows[0]!.n;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a PostgreSQL pool that loses its server', () => {
  const applicationName = `open-test-${process.pid}`;
  let database: DatabaseHandle;
  let admin: DatabaseHandle;
  beforeAll(async () => {
    const url = new URL(TEST_DATABASE_URL);
    url.searchParams.set('application_name', applicationName);
    database = await openDatabase({ databaseUrl: url.toString(), maxConnections: 3, timeouts: { statementTimeoutMs: 1_000, queryTimeoutMs: 1_500 } });
    admin = await openDatabase({ databaseUrl: TEST_DATABASE_URL, maxConnections: 1 });
  });
  afterAll(async () => {
    await database?.close();
    await admin?.close();
  });

  it('fails the query of a checked-out client whose backend is terminated, without crashing, and recovers', async () => {
    // Mid-transaction: the client is checked out, so only the pool's 'connect' listener covers it.
    // Terminated while it sleeps (it would sleep a minute: its timeouts are lifted), however long
    // the machine takes to get it there.
    const inTransaction = failureOf(
      database.db.transaction().execute(async (trx) => {
        await liftTimeouts(trx);
        await sql`select pg_sleep(60)`.execute(trx);
      }),
    );
    while ((await backends(admin, applicationName, 'select pg_sleep(60)')) === 0) await pause(20);
    await terminate(admin, applicationName);
    expect(isDatabaseUnavailable(await inTransaction)).toBe(true);
    // Idle clients die as well; the pool discards them and opens new ones. Once the server has
    // ended them, their sockets are closed: the pool hears it in the next turns of the event loop.
    await terminate(admin, applicationName);
    while ((await backends(admin, applicationName)) > 0) await pause(20);
    await pause(100);
    for (let round = 0; round < 5; round++) expect((await sql<{ n: number }>`select 1 as n`.execute(database.db)).rows).toEqual([{ n: 1 }]);
  });

  it('cancels a statement past the statement timeout (server side)', async () => {
    const error = await failureOf(sql`select pg_sleep(3)`.execute(database.db));
    expect((error as { code?: string }).code).toBe('57014');
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it('lifts both timeouts for the rest of a transaction, and only there', async () => {
    await database.db.transaction().execute(async (trx) => {
      await liftTimeouts(trx);
      await sql`select pg_sleep(1.8)`.execute(trx);
    });
    expect((await failureOf(sql`select pg_sleep(3)`.execute(database.db)) as { code?: string }).code).toBe('57014');
  });

  it('runs work without timeouts on a connection of its own, then restores the session', async () => {
    await withoutTimeouts(database.db, async (connection) => {
      await sql`select pg_sleep(1.8)`.execute(connection);
    });
    const settings = await Promise.all([0, 1, 2].map(() => sql<{ statement_timeout: string }>`show statement_timeout`.execute(database.db)));
    expect(settings.map(({ rows }) => rows[0]!.statement_timeout)).toEqual(['1s', '1s', '1s']);
  });

  it('runs a migration longer than both timeouts', async () => {
    const schema = `timeouts_${process.pid}`;
    try {
      const applied = await migrateSchema(database.db, schema, {
        '20260101T000000_slow': { up: async (db) => void (await sql`select pg_sleep(1.8)`.execute(db)) },
      });
      expect(applied).toEqual(['20260101T000000_slow']);
    } finally {
      await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(admin.db);
    }
  });

  it('drops a connection whose query gets no answer within the client-side timeout', async () => {
    // A backend that holds a lock never answers; with the server's timeout lifted only the
    // client-side timer can end the wait (as with a black-holed server).
    const holder = await database.db.connection().execute(async (connection) => {
      await sql`select pg_advisory_lock(4242)`.execute(connection);
      try {
        const started = Date.now();
        const error = await failureOf(
          database.db.transaction().execute(async (trx) => {
            await sql`set local statement_timeout = 0`.execute(trx);
            await sql`select pg_advisory_xact_lock(4242)`.execute(trx);
          }),
        );
        return { error, elapsed: Date.now() - started };
      } finally {
        await sql`select pg_advisory_unlock(4242)`.execute(connection);
      }
    });
    expect(holder.error).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(holder.error)).toBe(true);
    // Not before the client-side timeout; and ended by it: without it the wait never ends.
    expect(holder.elapsed).toBeGreaterThanOrEqual(1_400);
    expect((await sql<{ n: number }>`select 2 as n`.execute(database.db)).rows).toEqual([{ n: 2 }]);
  });
});

describe('lifted timeouts end with the checkout', () => {
  it('gives the next user of the same connection its client-side timeout back', async () => {
    const single = await openDatabase({ databaseUrl: TEST_DATABASE_URL, maxConnections: 1, timeouts: { statementTimeoutMs: 0, queryTimeoutMs: 800 } });
    try {
      await single.db.transaction().execute(async (trx) => {
        await liftTimeouts(trx);
        await sql`select pg_sleep(1.2)`.execute(trx);
      });
      const error = await failureOf(sql`select pg_sleep(3)`.execute(single.db));
      expect(error).toBeInstanceOf(QueryTimeoutError);
      expect((await sql<{ n: number }>`select 3 as n`.execute(single.db)).rows).toEqual([{ n: 3 }]);
    } finally {
      await single.close();
    }
  });
});

describe('QueryTimeoutError', () => {
  it('says how long it waited', () => {
    expect(new QueryTimeoutError(1500).message).toMatch(/1500 ms/);
  });
});
