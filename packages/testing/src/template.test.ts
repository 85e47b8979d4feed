import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseUrl, withAdminClient } from './postgres-server.js';
import { dropAbandonedScratchTemplates, scratchTemplateName } from './template.js';

const exists = (name: string) =>
  withAdminClient(async (client) => (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1);

describe('scratch templates', () => {
  const now = Date.now();
  const abandoned = scratchTemplateName(now - 3600_000);
  const building = scratchTemplateName(now - 1_000);
  const unstamped = `landscreen_template_building_${Math.floor(Math.random() * 0xffffffff).toString(16).padStart(8, '0')}`;
  const inUse = scratchTemplateName(now - 3600_000);
  const all = [abandoned, building, unstamped, inUse];

  afterAll(async () => {
    await withAdminClient(async (client) => {
      for (const name of all) await client.query(`drop database if exists ${name} with (force)`);
    });
  });

  it('drops the ones a dead run left, not a build in progress', async () => {
    await withAdminClient(async (client) => {
      for (const name of all) await client.query(`create database ${name}`);
    });
    const holder = new pg.Client({ connectionString: databaseUrl(inUse) });
    await holder.connect();
    try {
      const dropped = await dropAbandonedScratchTemplates(now);
      expect(dropped).toEqual(expect.arrayContaining([abandoned, unstamped]));
      expect(dropped).not.toContain(building);
      expect(dropped).not.toContain(inUse);
      expect(await exists(abandoned)).toBe(false);
      expect(await exists(unstamped)).toBe(false);
      expect(await exists(building)).toBe(true);
      expect(await exists(inUse)).toBe(true);
    } finally {
      await holder.end();
    }
  });
});
