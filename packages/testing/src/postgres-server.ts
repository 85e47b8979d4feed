import pg from 'pg';

/**
 * Real PostgreSQL for tests: the machine's server (TEST_DATABASE_URL, default the local `test`
 * database). Each suite gets its own database, cloned from a migrated template (graphile-worker
 * style), so suites never see each other's rows and never pay for migrations twice.
 */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const SUITE_PREFIX = 'landscreen_suite_';

export function databaseUrl(name: string): string {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A connection to the server's own database, for creating and dropping the suites' databases. */
export async function withAdminClient<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Drops suite databases left behind by runs that were killed. */
export async function dropStaleSuiteDatabases(): Promise<void> {
  await withAdminClient(async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      `select datname from pg_database where datname like '${SUITE_PREFIX}%'`,
    );
    for (const { datname } of rows) {
      // A suite of a concurrent run is younger than an hour; leave those alone.
      const created = parseInt(datname.slice(SUITE_PREFIX.length).split('_')[0]!, 36);
      if (Date.now() - created > 3600_000) await client.query(`drop database if exists ${datname} with (force)`);
    }
  });
}
