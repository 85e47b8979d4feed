import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DATABASE_MODES, startTestStack, type TestStack } from '@landscreen/testing';

describe.each(DATABASE_MODES)('health probes on %s', (mode) => {
  let app: TestStack;
  beforeAll(async () => {
    app = await startTestStack(mode);
  });
  afterAll(() => app?.close());

  it('GET /healthz answers ok with the build', async () => {
    const response = await app.get('/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', build: expect.stringMatching(/^0\.2\.0/) });
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('GET /readyz is 200 while every schema carries exactly this build\'s migrations', async () => {
    const response = await app.get('/readyz');
    expect(response.status).toBe(200);
    expect(Object.keys(response.body.services).sort()).toEqual(['auth', 'catalog', 'diligence', 'discovery', 'pipeline']);
  });

  it('GET /readyz is 503 with the reason when a migration is missing, and 200 again once it is back', async () => {
    const db = app.stack.database.db;
    const { rows } = await sql<{ name: string }>`select name from auth.kysely_migration order by name limit 1`.execute(db);
    const name = rows[0]!.name;
    await sql`delete from auth.kysely_migration where name = ${name}`.execute(db);
    try {
      const response = await app.get('/readyz');
      expect(response.status).toBe(503);
      expect(response.body.code).toBe('not_ready');
      expect(response.body.detail).toContain(`auth: pending migrations: ${name}`);
    } finally {
      await sql`insert into auth.kysely_migration (name, timestamp) values (${name}, now()::text)`.execute(db);
    }
    expect((await app.get('/readyz')).status).toBe(200);
  });

  it('GET /readyz is 503 when the database holds a migration this build does not know', async () => {
    const db = app.stack.database.db;
    await sql`insert into catalog.kysely_migration (name, timestamp) values ('29990101T000000_from_the_future', now()::text)`.execute(db);
    try {
      const response = await app.get('/readyz');
      expect(response.status).toBe(503);
      expect(response.body.detail).toContain('catalog: migrations unknown to this build: 29990101T000000_from_the_future');
    } finally {
      await sql`delete from catalog.kysely_migration where name = '29990101T000000_from_the_future'`.execute(db);
    }
  });

  it('honours a caller\'s x-request-id', async () => {
    const response = await app.get('/healthz', { headers: { 'x-request-id': 'trace-abc-123' } });
    expect(response.headers.get('x-request-id')).toBe('trace-abc-123');
  });
});
