import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './open.js';
import { PREPARED } from './prepared.js';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const preparedHere = async (db: DatabaseHandle['db']) =>
  (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(db)).rows;

describe('PREPARED statements on PostgreSQL', () => {
  let database: DatabaseHandle;
  // One connection, so the statements this test prepares are the ones it then looks at.
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: TEST_DATABASE_URL, maxConnections: 1 });
  });
  afterAll(() => database?.close());

  it('prepares a marked statement once per connection and binds new values each call', async () => {
    const square = (n: number) => sql<{ n: number }>`${PREPARED}select ${n}::int * ${n}::int as n`.execute(database.db);
    expect((await square(3)).rows).toEqual([{ n: 9 }]);
    expect((await square(4)).rows).toEqual([{ n: 16 }]);
    const mine = (await preparedHere(database.db)).filter((row) => row.statement.includes('::int * '));
    expect(mine).toHaveLength(1);
    expect(mine[0]!.name).toMatch(/^landscreen_prepared_\d+$/);
  });

  it('leaves unmarked statements unnamed', async () => {
    await sql`select ${5}::int + 1 as unmarked_sum`.execute(database.db);
    expect((await preparedHere(database.db)).some((row) => row.statement.includes('unmarked_sum'))).toBe(false);
  });

  it('gives two marked statements two names', async () => {
    await sql`${PREPARED}select 1 as first_marked`.execute(database.db);
    await sql`${PREPARED}select 2 as second_marked`.execute(database.db);
    const names = (await preparedHere(database.db)).filter((row) => /(first|second)_marked/.test(row.statement)).map((row) => row.name);
    expect(new Set(names).size).toBe(2);
  });
});

describe('PREPARED statements on PGlite', () => {
  it('runs them as written', async () => {
    const database = await openDatabase({});
    try {
      expect((await sql<{ n: number }>`${PREPARED}select ${6}::int * 7 as n`.execute(database.db)).rows).toEqual([{ n: 42 }]);
    } finally {
      await database.close();
    }
  });
});
