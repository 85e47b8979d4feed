// The credit ledger under concurrency on real PostgreSQL (D34): 50 requests racing for a
// balance that covers 10 charge exactly 10; the rest are 402 with nothing charged; the balance is
// never negative; one Idempotency-Key is charged once; and `landscreen plan set`, run as a process
// of its own, changes what is charged.

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { findTenant, authDb } from '@landscreen/auth-service';
import { setPlan, catalogDb } from '@landscreen/catalog-service';
import { FIELDS } from '@landscreen/field-catalog';
import { startTestStack, type TestDatabase, type TestStack } from '@landscreen/testing';
import { runLandscreen } from '../support/cli-process.js';

const ORDINARY = FIELDS.filter((field) => field.billing.metered_group === null).map((field) => field.name);
const SIGNUP_GRANT = 492;
const headersOf = (tenant: string) => ({ authorization: `Bearer dev:ann@${tenant}.test`, 'x-tenant': tenant });
const locations = (n: number) => Array.from({ length: n }, (_, i) => ({ lat: 30 + (i % 100) * 0.01, lon: -97 - Math.floor(i / 100) * 0.01 }));

describe('credits under concurrency on PostgreSQL', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-billing-'));
  let app: TestStack;
  let env: Record<string, string>;

  beforeAll(async () => {
    // A pool as large as the burst, so the requests really do race in the database.
    app = await startTestStack('postgres');
    env = { DATABASE_URL: (app.stack.database as TestDatabase).url, DATA_DIR: dir, LOG_LEVEL: 'silent' };
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function planSet(tenant: string, plan: string) {
    const run = await runLandscreen(['plan', 'set', '--tenant', tenant, '--plan', plan], env);
    expect(run.stderr).toBe('');
    return run;
  }

  it('landscreen plan set changes the plan (and refuses an unknown one)', async () => {
    const headers = headersOf('cli-plan');
    expect((await app.get('/v1/usage', { headers })).body).toMatchObject({ plan: 'free', rpm: 20, included: 5000 + SIGNUP_GRANT });
    const set = await planSet('cli-plan', 'scale');
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('cli-plan is on the scale plan: 750,000 credits a month, 600 requests a minute');
    expect((await app.get('/v1/usage', { headers })).body).toMatchObject({ plan: 'scale', rpm: 600, included: 750000 + SIGNUP_GRANT });
    // scale prices the parcel group at 150.
    const answer = await app.post('/v1/fetch/batch', { locations: locations(2), fields: ['parcel_id'] }, { headers });
    expect(answer.body.credits).toMatchObject({ charged: 300, per_location: 150 });

    const unknown = await runLandscreen(['plan', 'set', '--tenant', 'cli-plan', '--plan', 'platinum'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toContain('no plan "platinum"');
  });

  it('charges exactly 10 of 50 concurrent requests when the balance covers 10, never below zero', async () => {
    const tenant = 'race';
    const headers = headersOf(tenant);
    expect((await app.get('/v1/me', { headers })).status).toBe(200);
    await setPlan(catalogDb(app.stack.database.db), (await findTenant(authDb(app.stack.database.db), tenant))!.id, 'growth', new Date()); // 300 rpm, 120,000 credits (+ the grant)
    // Spend all but 10 credits: 1,000 x 120 fields, then 482 x 1 field.
    const allowance = 120000 + SIGNUP_GRANT;
    expect((await app.post('/v1/fetch/batch', { locations: locations(1000), fields: ORDINARY.slice(0, 120) }, { headers })).status).toBe(200);
    const left = await app.post('/v1/fetch/batch', { locations: locations(allowance - 120000 - 10), fields: ['elevation'] }, { headers });
    expect(left.body.credits.balance).toBe(10);

    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => app.post('/v1/fetch/batch', { locations: [{ lat: 30, lon: -97, id: `r${i}` }], fields: ['slope_degrees'] }, { headers })),
    );
    const charged = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 402);
    expect(charged).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const answer of refused) expect(answer.body).toEqual({ detail: expect.any(String), code: 'insufficient_credits', required: 1, remaining: 0 });
    // Each success saw its own balance: 9, 8, ..., 0 exactly once.
    expect(charged.map((answer) => answer.body.credits.balance).sort((a: number, b: number) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);

    const usage = await app.get('/v1/usage', { headers });
    expect(usage.body).toMatchObject({ charged: allowance, remaining: 0 });
    // The ledger agrees with the running sum: one row per charged request, none for the refused.
    const db = app.stack.database.db;
    const rows = await sql<{ count: number; credits: number }>`
      select count(*)::int as count, sum(credits)::bigint as credits from catalog.credit_ledger l
      join auth.tenants t on t.id = l.tenant_id where t.slug = ${tenant}`.execute(db);
    expect(rows.rows[0]).toEqual({ count: 12, credits: allowance });
    // Append-only: the database itself refuses to rewrite a charge.
    await expect(sql`update catalog.credit_ledger set credits = 0`.execute(db)).rejects.toThrow(/append-only/);
  });

  it('charges 50 concurrent requests with one Idempotency-Key once', async () => {
    const headers = headersOf('race-key');
    expect((await app.get('/v1/me', { headers })).status).toBe(200);
    await setPlan(catalogDb(app.stack.database.db), (await findTenant(authDb(app.stack.database.db), 'race-key'))!.id, 'growth', new Date());
    const body = { locations: locations(3), fields: ['elevation', 'parcel_id'] };
    const answers = await Promise.all(Array.from({ length: 50 }, () => app.post('/v1/fetch/batch', body, { headers: { ...headers, 'idempotency-key': 'same' } })));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') !== 'true').map((answer) => answer.headers.get('x-credits-charged'))).toEqual(['903']);
    expect((await app.get('/v1/usage', { headers })).body.charged).toBe(903);
  });
});
