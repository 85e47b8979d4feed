import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { ensurePGliteTemplate, pgliteTemplatePath } from '@landscreen/db';
import type { Logger } from '@landscreen/rpc';
import { migrateModules, type SchemaMigrations } from './service-packages.js';

/** Where templates are kept: the repository's node_modules/.cache, beside other tools' caches. */
const CACHE_DIR = fileURLToPath(new URL('../../../node_modules/.cache/landscreen', import.meta.url));

/** A fingerprint of these migrations: schemas, names and code. */
export function migrationsFingerprint(plan: readonly SchemaMigrations[]): string {
  const hash = createHash('sha256');
  for (const { schema, migrations } of plan) {
    hash.update(schema);
    for (const [name, migration] of Object.entries(migrations)) hash.update(name).update(String(migration.up)).update(String(migration.down));
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The migrated PGlite database a new data directory starts from (@landscreen/db's
 * pglite-template.ts): written by `npm ci` (scripts/pglite-template.mjs) and the image build, or
 * here, once, by the first start that finds none for these migrations.
 */
export async function migratedPGliteTemplate(plan: readonly SchemaMigrations[], logger?: Logger): Promise<string> {
  const template = pgliteTemplatePath(CACHE_DIR, migrationsFingerprint(plan));
  const started = Date.now();
  const { written } = await ensurePGliteTemplate(template, async (handle) => {
    logger?.info({ template }, 'no migrated PGlite template for these migrations yet: creating one (initdb and migrations, once)');
    await migrateModules(handle, plan);
  });
  if (written) logger?.info({ template, ms: Date.now() - started }, 'PGlite template written');
  return template;
}
