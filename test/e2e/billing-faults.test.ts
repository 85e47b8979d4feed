// No credit is charged for an answer not given (D39), over HTTP on PGlite and PostgreSQL: every
// billed request made to fail after its charge (each of billing's fault points, for a batch, a
// lookup and a run) answers 500 and leaves the balance, the ledger and the runs as they were; the
// same request retried with its Idempotency-Key is then charged once. A batch whose answer would
// be larger than a batch may answer is refused 413 before any charge, pointing at /v1/runs.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogDb, importLayer } from '@landscreen/catalog-service';
import type { ProcessDatabase } from '@landscreen/db';
import { DATABASE_MODES, faultSwitch, startTestStack, type TestStack } from '@landscreen/testing';
import { BILLING_FAULTS } from '../../services/catalog/src/billing/index.js';
import { MAX_FETCH_ANSWER_BYTES } from '../../services/catalog/src/fetch/answer-size.js';
import { headersOf, tenantOnPlan, usage } from '../support/runs.js';

/** The substation every test location is nearest to has a status this long (40 KB of text). */
const LONG_STATUS = 'S'.repeat(40_000);

/** One substation with a very long status, as the current hifld_substations layer. */
async function loadLongStatusSubstation(db: ProcessDatabase): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'landscreen-faults-'));
  try {
    const file = path.join(dir, 'substations.geojson');
    const feature = { type: 'Feature', geometry: { type: 'Point', coordinates: [-97.5, 30.5] }, properties: { name: 'Long', max_voltage_kv: 138, status: LONG_STATUS } };
    await writeFile(file, JSON.stringify({ type: 'FeatureCollection', features: [feature] }));
    await importLayer(catalogDb(db), { source: 'hifld_substations', file });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const points = (count: number) => Array.from({ length: count }, (_, i) => ({ lat: 30.4 + (i % 100) * 0.002, lon: -97.6 + Math.floor(i / 100) * 0.02, id: `f${i}` }));

/** One billed request of each billed operation, with what it charges. */
const OPERATIONS = [
  { name: 'POST /v1/fetch/batch', path: '/v1/fetch/batch', body: { locations: points(3), fields: ['nearest_substation_distance_m'] }, status: 200 },
  { name: 'POST /v1/lookup', path: '/v1/lookup', body: { lat: 30.5, lon: -97.5 }, status: 200 },
  { name: 'POST /v1/runs', path: '/v1/runs', body: { locations: points(3), fields: ['nearest_substation_distance_m'] }, status: 202 },
] as const;

describe.each(DATABASE_MODES)('no charge for an answer not given, on %s', (mode) => {
  const fault = faultSwitch();
  let app: TestStack;
  let tenantId: string;
  const TENANT = `faults-${mode}`;
  const headers = headersOf(TENANT);

  /** The tenant's ledger and runs as the database holds them. */
  async function books() {
    const db = app.stack.database.db;
    const { rows: ledger } = await sql<{ rows: number; credits: string }>`
      select count(*)::int as rows, coalesce(sum(credits), 0)::text as credits from catalog.credit_ledger where tenant_id = ${tenantId}`.execute(db);
    const { rows: runs } = await sql<{ runs: number }>`select count(*)::int as runs from catalog.runs where tenant_id = ${tenantId}`.execute(db);
    return { ...ledger[0]!, ...runs[0]!, usage: await usage(app, TENANT) };
  }

  beforeAll(async () => {
    app = await startTestStack(mode, { faults: fault.faults });
    await loadLongStatusSubstation(app.stack.database.db);
    tenantId = await tenantOnPlan(app, app.stack.database.db, TENANT, 'scale');
  });
  afterAll(() => app?.close());

  for (const operation of OPERATIONS) {
    for (const point of BILLING_FAULTS) {
      it(`${operation.name} failing at ${point} answers 500 and charges nothing; its retry is charged once`, async () => {
        const before = await books();
        const key = { 'idempotency-key': `${operation.path}-${point}-${mode}` };
        const failed = await fault.armedAt(point, () => app.post(operation.path, operation.body, { headers: { ...headers, ...key } }));
        expect(failed.status).toBe(500);
        expect(failed.body).toMatchObject({ detail: 'internal error', code: 'internal' });
        expect(await books()).toEqual(before);

        const retried = await app.post(operation.path, operation.body, { headers: { ...headers, ...key } });
        expect(retried.status).toBe(operation.status);
        const charged = Number(retried.headers.get('x-credits-charged'));
        expect(charged).toBeGreaterThan(0);
        const after = await books();
        expect(after.rows).toBe(before.rows + 1);
        expect(after.usage.remaining).toBe(before.usage.remaining - charged);
        // Replayed, not charged again.
        const replayed = await app.post(operation.path, operation.body, { headers: { ...headers, ...key } });
        expect(replayed.headers.get('x-credits-charged')).toBe('0');
        expect((await books()).rows).toBe(after.rows);
      });
    }
  }

  it(`refuses a batch whose answer would exceed ${MAX_FETCH_ANSWER_BYTES / 1024 / 1024} MiB with 413 answer_too_large, before any charge`, async () => {
    const before = await books();
    const body = { locations: points(1000), fields: ['nearest_substation_status'] };
    const refused = await app.post('/v1/fetch/batch', body, { headers });
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ code: 'answer_too_large', limit_bytes: MAX_FETCH_ANSWER_BYTES, runs: '/v1/runs' });
    expect(refused.body.answer_bytes).toBeGreaterThan(MAX_FETCH_ANSWER_BYTES);
    expect(refused.body.detail).toContain('POST /v1/runs');
    expect(refused.headers.get('x-credits-charged')).toBe('0');
    expect(await books()).toEqual(before);

    // The same locations in a smaller batch are answered, every value whole.
    const answered = await app.post('/v1/fetch/batch', { ...body, locations: points(10) }, { headers });
    expect(answered.status).toBe(200);
    expect(answered.body.results.map((result: any) => result.values.nearest_substation_status)).toEqual(Array(10).fill(LONG_STATUS));
  });
});
