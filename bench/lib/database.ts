import pg from 'pg';

/** The PostgreSQL server benchmarks use (the `test` database is only the admin connection). */
export const ADMIN_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Appended to the names of a run's throwaway databases (copies, scratch databases): BENCH_DB_SUFFIX,
 * else this process's id, so two runs at once never drop or write each other's. Cached databases
 * that a later run reuses (the layered market) keep their fixed names.
 */
export const BENCH_DB_SUFFIX = benchDbSuffix(process.env.BENCH_DB_SUFFIX);

function benchDbSuffix(raw: string | undefined): string {
  const suffix = raw?.trim() || String(process.pid);
  // An unquoted identifier: folded to lower case, so only lower case letters, digits and _.
  if (!/^[a-z0-9_]{1,20}$/.test(suffix)) throw new Error(`BENCH_DB_SUFFIX must be 1-20 lower case letters, digits or _, got "${suffix}"`);
  return suffix;
}

/** A throwaway database's name for this run: `base_<suffix>`. */
export function throwawayName(base: string): string {
  return `${base}_${BENCH_DB_SUFFIX}`;
}

/** The URL of database `name` on the benchmark server. */
export function databaseUrlOf(name: string): string {
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops and creates database `name` on the benchmark server; answers its URL. */
export async function freshDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return databaseUrlOf(name);
}

/** Drops database `name` if it exists (its connections too). */
export async function dropDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}
