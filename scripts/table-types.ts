// Writes each service's table types (`services/<schema>/src/tables.generated.ts`) from its
// migrations: a scratch PostgreSQL database is migrated exactly as a data directory is, and
// kysely-codegen reads the tables back from it. `--check` writes nothing and fails when a
// committed file differs from what the migrations make (CI runs it, as it does for the proto code).
// Each service's `schema.ts` declares its tables from these, narrowing only what the code knows
// better than the catalog of PostgreSQL (a status union, a format name).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { MIGRATION_PLAN, migrateModules } from '@landscreen/runtime';
import { openDatabase } from '@landscreen/db';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const check = process.argv.includes('--check');

// What the drivers hand over, as the services already read it: int8 parsed as a number (both
// drivers are set up so), bytea as bytes (a Buffer from pg, a Uint8Array from PGlite), jsonb parsed.
const TYPE_MAPPING = { int8: 'number', bytea: 'Uint8Array', jsonb: 'unknown', json: 'unknown' };

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function urlOf(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

const scratch = `landscreen_table_types_${randomBytes(4).toString('hex')}`;
await admin(`create database ${scratch}`);
let failed = false;
try {
  const handle = await openDatabase({ databaseUrl: urlOf(scratch), maxConnections: 1 });
  try {
    await migrateModules(handle, MIGRATION_PLAN);
  } finally {
    await handle.close();
  }
  for (const { schema } of MIGRATION_PLAN) {
    const outFile = `services/${schema}/src/tables.generated.ts`;
    const args = [
      'kysely-codegen', '--dialect', 'postgres', '--url', urlOf(scratch), '--log-level', 'error',
      '--include-pattern', `${schema}.*`, '--exclude-pattern', `${schema}.kysely_migration*`,
      '--type-mapping', JSON.stringify(TYPE_MAPPING), '--out-file', outFile,
      ...(check ? ['--verify'] : []),
    ];
    const result = spawnSync('npx', ['--no-install', ...args], { cwd: ROOT, stdio: 'inherit' });
    if (result.status !== 0) {
      failed = true;
      console.error(`${outFile}: ${check ? 'differs from the migrations: run `npm run generate:tables` and commit it' : 'could not be written'}`);
    }
  }
} finally {
  await admin(`drop database if exists ${scratch} with (force)`);
}
if (failed) process.exit(1);
console.log(check ? 'table types are up to date' : 'table types written');
