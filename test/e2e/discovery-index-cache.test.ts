import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type EmbeddedStack } from '@landscreen/runtime';
import { loadConfig } from '@landscreen/config';
import type { DatabaseHandle } from '@landscreen/db';
import { createLogger, type FaultInjector } from '@landscreen/rpc';
import { createTestPGlite, createTestPostgres, DATABASE_MODES, entitleTenant, httpClient, loadMarket, type HttpClient } from '@landscreen/testing';

const ACME = { authorization: 'Bearer dev:ann@acme.test', 'x-tenant': 'acme' };
const SPEC = {
  markets: ['cache-tx'],
  must: [{ field: 'acres', op: '>=', value: 20 }],
  preferred: [
    { field: 'zoning', op: '=', value: 'industrial', weight: 2 },
    { field: 'nearest_substation_distance_m', op: '<=', value: 3000, weight: 3 },
  ],
  verdict_cutoffs: { pursue: 70, monitor: 40 },
};
const PARCELS = Array.from({ length: 60 }, (_, row) => ({
  properties: {
    parcel_key: `c${String(row).padStart(3, '0')}`,
    acres: (row * 7) % 90,
    zoning: row % 3 === 0 ? 'industrial' : 'agricultural',
    nearest_substation_distance_m: row % 5 === 0 ? null : (row * 211) % 6000,
  },
}));

/** Answers `action` with the gate closed: every call at `point` waits until the gate opens. */
function gateAt(point: string) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const faults: FaultInjector = (at) => (at === point ? opened : undefined);
  return { faults, open };
}

const failAt = (point: string, armed: { on: boolean }): FaultInjector => (at) => {
  if (at === point && armed.on) throw new Error(`injected fault at ${point}`);
};

/** Until /readyz answers 200 (the test's timeout bounds the wait). */
async function ready(client: HttpClient): Promise<void> {
  while ((await client.get('/readyz')).status !== 200) await new Promise((resolve) => setTimeout(resolve, 25));
}

/** /readyz once discovery no longer reports that it is warming (it failed, or it is ready). */
async function readinessOnceWarmingEnded(client: HttpClient) {
  for (;;) {
    const response = await client.get('/readyz');
    if (!/discovery: warming/.test(response.body.detail ?? '')) return response;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each(DATABASE_MODES)('the discovery index cache and readiness on %s', (mode) => {
  let database: DatabaseHandle;
  let vintageId: string;
  let ranked: unknown;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-index-cache-e2e-'));
  const cacheDir = path.join(dataDir, 'index-cache');
  const running = new Set<EmbeddedStack>();

  /** A replica on the shared database and cache directory, as a restart would start it. */
  async function start(faults?: FaultInjector): Promise<{ stack: EmbeddedStack; client: HttpClient }> {
    const config = loadConfig({}, { port: 0, host: '127.0.0.1', dataDir, discoveryCacheDir: cacheDir, logLevel: 'silent', authDev: true });
    const started = await startEmbeddedStack({ config, logger: createLogger('silent'), database, faults });
    running.add(started);
    const stack = { ...started, close: () => (running.delete(started), started.close()) };
    return { stack, client: httpClient(stack.url) };
  }
  const rank = (client: HttpClient) => client.post('/v2/discovery/query', { buy_box: 'cache', limit: 20 }, { headers: ACME });

  beforeAll(async () => {
    database = mode === 'postgres' ? await createTestPostgres() : await createTestPGlite();
    const { stack, client } = await start();
    expect((await client.get('/v1/me', { headers: ACME })).status).toBe(200);
    vintageId = (await loadMarket(database.db, 'cache-tx', PARCELS)).vintageId;
    await entitleTenant(database.db, 'acme', 'cache-tx');
    expect((await client.post('/v1/buyboxes', { name: 'cache', spec: SPEC }, { headers: ACME })).status).toBe(201);
    const first = await rank(client);
    expect(first.status).toBe(200);
    expect(first.body.results.length).toBeGreaterThan(5);
    ranked = first.body;
    // Stopping waits for the cache file the first load writes.
    await stack.close();
  });
  afterAll(async () => {
    for (const stack of running) await stack.close();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('restarts on the cached index: ready, and the same ranking without reading the database\'s copy', async () => {
    expect(existsSync(path.join(cacheDir, `${vintageId}.index`))).toBe(true);
    const { stack, client } = await start(failAt('discovery.index.load-from-database', { on: true }));
    await ready(client);
    const again = await rank(client);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(ranked);
    await stack.close();
  });

  it('rebuilds a damaged cache file from the database, then serves from the rebuilt one', async () => {
    const file = path.join(cacheDir, `${vintageId}.index`);
    const bytes = readFileSync(file);
    bytes[bytes.length - 3]! ^= 0xff;
    writeFileSync(file, bytes);
    const rebuilt = await start();
    await ready(rebuilt.client);
    expect((await rank(rebuilt.client)).body).toEqual(ranked);
    await rebuilt.stack.close();

    const fromCache = await start(failAt('discovery.index.load-from-database', { on: true }));
    await ready(fromCache.client);
    expect((await rank(fromCache.client)).body).toEqual(ranked);
    await fromCache.stack.close();
  });

  it('does not trust a file made before the database\'s stored columns changed, and rebuilds it', async () => {
    // Any rewrite of a stored column (a migration, a restore) gives the row a new version.
    await sql`update discovery.vintage_columns set data = data where vintage_id = ${vintageId} and kind = 'key_order'`.execute(database.db);
    const refused = await start(failAt('discovery.index.load-from-database', { on: true }));
    const readiness = await readinessOnceWarmingEnded(refused.client);
    expect(readiness.status).toBe(503);
    expect(readiness.body.detail).toContain('injected fault at discovery.index.load-from-database');
    await refused.stack.close();

    const rebuilt = await start();
    await ready(rebuilt.client);
    await rebuilt.stack.close();
    const fromCache = await start(failAt('discovery.index.load-from-database', { on: true }));
    await ready(fromCache.client);
    expect((await rank(fromCache.client)).body).toEqual(ranked);
    await fromCache.stack.close();
  });

  it('answers /readyz 503 while the current vintages\' indexes load, and 200 once they have', async () => {
    const gate = gateAt('discovery.warm-up');
    const { stack, client } = await start(gate.faults);
    const warming = await client.get('/readyz');
    expect(warming.status).toBe(503);
    expect(warming.body.code).toBe('not_ready');
    expect(warming.body.detail).toMatch(/^discovery: warming the ranking indexes of 1 current vintage/);
    expect(warming.body.services.discovery.ready).toBe(false);
    expect((await client.get('/healthz')).status).toBe(200);
    gate.open();
    await ready(client);
    expect((await rank(client)).body).toEqual(ranked);
    await stack.close();
  });

  it('reports why warming failed, and becomes ready once a retry succeeds', async () => {
    const armed = { on: true };
    const { stack, client } = await start(failAt('discovery.warm-up', armed));
    const failing = await readinessOnceWarmingEnded(client);
    expect(failing.status).toBe(503);
    // The pause doubles with each failed attempt: a slow machine may read it after the second.
    expect(failing.body.detail).toMatch(/^discovery: could not warm the ranking indexes \(retrying in \d+ s\): injected fault at discovery\.warm-up/);
    armed.on = false;
    await ready(client);
    await stack.close();
  });
});
