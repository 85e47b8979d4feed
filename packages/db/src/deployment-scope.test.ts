import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentScope } from './deployment-scope.js';
import { openDatabase, type DatabaseHandle } from './open.js';
import { ensurePGliteTemplate } from './pglite-template.js';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

describe('deploymentScope', () => {
  const names = [0, 1].map(() => `bus_scope_test_${randomBytes(4).toString('hex')}`);
  const url = (name: string) => Object.assign(new URL(TEST_DATABASE_URL), { pathname: `/${name}` }).toString();
  let admin: DatabaseHandle;

  beforeAll(async () => {
    admin = await openDatabase({ databaseUrl: TEST_DATABASE_URL, maxConnections: 1 });
    for (const name of names) await sql.raw(`create database ${name}`).execute(admin.db);
  });

  afterAll(async () => {
    for (const name of names) await sql.raw(`drop database if exists ${name} with (force)`).execute(admin.db);
    await admin.close();
  });

  it('is one per database, however it is reached, and differs between databases of one server', async () => {
    const scopes: string[] = [];
    // The second address of the first database: the same server by another host name.
    for (const address of [url(names[0]!), url(names[0]!).replace('127.0.0.1', 'localhost'), url(names[1]!)]) {
      const handle = await openDatabase({ databaseUrl: address, maxConnections: 1 });
      try {
        scopes.push(await deploymentScope(handle.db));
      } finally {
        await handle.close();
      }
    }
    expect(scopes[0]).toMatch(/^[0-9a-f]{16}$/);
    expect(scopes[1]).toBe(scopes[0]);
    expect(scopes[2]).not.toBe(scopes[0]);
  });

  it('tells apart PGlite directories copied from one template by what the caller adds', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bus-scope-'));
    try {
      const template = path.join(dir, 'template.tar');
      await ensurePGliteTemplate(template, async () => {});
      const scopes: string[][] = [];
      for (const copy of ['a', 'b']) {
        const handle = await openDatabase({ pgliteDir: path.join(dir, copy), pgliteTemplate: template });
        try {
          scopes.push([await deploymentScope(handle.db), await deploymentScope(handle.db, ['host', path.join(dir, copy)])]);
        } finally {
          await handle.close();
        }
      }
      // One cluster and one database name as far as PostgreSQL can say: only the directory differs.
      expect(scopes[1]![0]).toBe(scopes[0]![0]);
      expect(scopes[1]![1]).not.toBe(scopes[0]![1]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
