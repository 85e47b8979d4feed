import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { MIGRATION_PLAN, migrateModules, migrationsFingerprint } from '@landscreen/runtime';
import { openDatabase } from '@landscreen/db';
import { databaseUrl, dropStaleSuiteDatabases, withAdminClient } from './postgres-server.js';

const TEMPLATE_PREFIX = 'landscreen_template_';
const SCRATCH_PREFIX = `${TEMPLATE_PREFIX}building_`;
/** A build takes seconds; a scratch template older than this was left by a run that died. */
const SCRATCH_MAX_AGE_MS = 600_000;

/**
 * The migrated template every PostgreSQL suite is cloned from, named by a fingerprint of this
 * build's migrations (schemas, names and code). Two test runs of the same build share it; runs of
 * different builds (two checkouts, a branch being edited) each get their own, so one run never
 * drops the template another is cloning from.
 */
export function templateDatabaseName(): string {
  return TEMPLATE_PREFIX + migrationsFingerprint(MIGRATION_PLAN);
}

/** Builds the template once per build (vitest globalSetup); later runs reuse it. */
export async function prepareTemplateDatabase(): Promise<void> {
  await dropStaleSuiteDatabases();
  await dropAbandonedScratchTemplates();
  const name = templateDatabaseName();
  const exists = await withAdminClient(async (client) => (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1);
  if (!exists) await buildTemplate(name);
  await withAdminClient((client) => markTemplateUsed(client, name));
  await dropOtherTemplates(name);
}

/** The template's comment holds when a run last used it (epoch ms), read by dropOtherTemplates. */
export async function markTemplateUsed(client: pg.Client, name = templateDatabaseName()): Promise<void> {
  await client.query(`comment on database ${name} is '${Date.now()}'`);
}

/** Built under a scratch name and renamed when complete, so no run ever clones half a template. */
async function buildTemplate(name: string): Promise<void> {
  const scratch = scratchTemplateName();
  await withAdminClient((client) => client.query(`create database ${scratch}`));
  try {
    const handle = await openDatabase({ databaseUrl: databaseUrl(scratch), maxConnections: 1 });
    try {
      await migrateModules(handle, MIGRATION_PLAN);
    } finally {
      await handle.close();
    }
  } catch (error) {
    await withAdminClient((client) => client.query(`drop database if exists ${scratch} with (force)`)).catch(() => undefined);
    throw error;
  }
  await withAdminClient(async (client) => {
    try {
      await client.query(`alter database ${scratch} rename to ${name}`);
    } catch {
      // A concurrent run of the same build finished first: use its template.
      await client.query(`drop database if exists ${scratch}`);
    }
  });
}

/** Named after when it was made (base 36 epoch ms), so a later run can tell an abandoned one. */
export function scratchTemplateName(now = Date.now()): string {
  return `${SCRATCH_PREFIX}${now.toString(36)}_${randomBytes(4).toString('hex')}`;
}

/**
 * Scratch templates a killed run left behind. One younger than SCRATCH_MAX_AGE_MS may be another
 * run's build in progress; older ones, and those named before the name carried its time, are
 * dropped unless someone is connected to them (a plain DROP DATABASE refuses then).
 */
export async function dropAbandonedScratchTemplates(now = Date.now()): Promise<string[]> {
  return withAdminClient(async (client) => {
    const { rows } = await client.query<{ datname: string }>(`select datname from pg_database where datname like '${SCRATCH_PREFIX}%'`);
    const dropped: string[] = [];
    for (const { datname } of rows) {
      const stamp = /^([0-9a-z]+)_[0-9a-f]+$/.exec(datname.slice(SCRATCH_PREFIX.length));
      const made = stamp ? parseInt(stamp[1]!, 36) : 0;
      if (now - made < SCRATCH_MAX_AGE_MS) continue;
      try {
        await client.query(`drop database if exists ${datname}`);
        dropped.push(datname);
      } catch {
        // In use: a build that is still going.
      }
    }
    return dropped;
  });
}

/**
 * Templates of other builds that no run has used for an hour. A run of another build (a second
 * checkout, a branch being edited) may still be cloning from a younger one, so those stay.
 */
async function dropOtherTemplates(keep: string): Promise<void> {
  await withAdminClient(async (client) => {
    const { rows } = await client.query<{ datname: string; used: string | null }>(
      `select datname, shobj_description(oid, 'pg_database') as used from pg_database
        where (datname like '${TEMPLATE_PREFIX}%' or datname = 'landscreen_template') and datname <> $1 and datname not like '${TEMPLATE_PREFIX}building_%'`,
      [keep],
    );
    for (const { datname, used } of rows) {
      const lastUsed = Number(used ?? 0);
      if (Number.isFinite(lastUsed) && Date.now() - lastUsed < 3600_000) continue;
      await client.query(`drop database if exists ${datname}`).catch(() => undefined);
    }
  });
}
