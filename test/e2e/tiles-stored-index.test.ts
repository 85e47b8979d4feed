// The parcel index maps and LocateParcels read is stored with the vintage by the import, so a
// restarted server's first tile comes from it (a fault armed where the index would be built from
// the parcels' rows proves it); a vintage stored without one (imported before it was kept), or
// with damaged bytes, is built from its rows once and stored. On PGlite and PostgreSQL.

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedStack, type EmbeddedStack } from '@landscreen/runtime';
import { loadConfig } from '@landscreen/config';
import type { DatabaseHandle } from '@landscreen/db';
import { createLogger, type FaultInjector } from '@landscreen/rpc';
import { checkFetchResponse, createTestPGlite, createTestPostgres, DATABASE_MODES, entitleTenant, httpClient, loadMarket, type HttpClient } from '@landscreen/testing';

const ACME = { authorization: 'Bearer dev:ann@acme-stored.test', 'x-tenant': 'acme-stored' };
const MARKET = 'stored-tx';
const Z = 13;
const [LON, LAT] = [-97.5, 30.5];
const X = Math.floor(((LON + 180) / 360) * 2 ** Z);
const Y = Math.floor(((1 - Math.asinh(Math.tan((LAT * Math.PI) / 180)) / Math.PI) / 2) * 2 ** Z);
const TILE = `/v1/tiles/parcels/${MARKET}/${Z}/${X}/${Y}.mvt?buy_box=stored`;
const BUILD_FROM_ROWS = 'discovery.parcel-index.build-from-rows';

/** A grid of small squares around the tile's corner, keys in no sorted order (the file's order is not the key order). */
const PARCELS = Array.from({ length: 48 }, (_, i) => {
  const lon = LON - 0.012 + (i % 8) * 0.004;
  const lat = LAT - 0.01 + Math.floor(i / 8) * 0.004;
  const geometry =
    i % 5 === 0
      ? { type: 'MultiPolygon' as const, coordinates: [[[[lon, lat], [lon + 0.001, lat], [lon + 0.001, lat + 0.001], [lon, lat + 0.001], [lon, lat]]], [[[lon + 0.002, lat], [lon + 0.003, lat], [lon + 0.003, lat + 0.003], [lon + 0.002, lat]]]] }
      : { type: 'Polygon' as const, coordinates: [[[lon, lat], [lon + 0.003, lat], [lon + 0.003, lat + 0.003], [lon, lat + 0.003], [lon, lat]]] };
  return { geometry, properties: { parcel_key: `s${String((i * 37) % 100).padStart(3, '0')}`, acres: 10 + ((i * 13) % 90), nearest_substation_distance_m: (i * 211) % 6000 } };
});
const SPEC = {
  markets: [MARKET],
  must: [{ field: 'acres', op: '>=', value: 20 }],
  preferred: [{ field: 'nearest_substation_distance_m', op: '<=', value: 3000, weight: 3 }],
  verdict_cutoffs: { pursue: 70, monitor: 40 },
};

const failAt = (point: string): FaultInjector => (at) => {
  if (at === point) throw new Error(`injected fault at ${point}`);
};

async function ready(client: HttpClient): Promise<void> {
  while ((await client.get('/readyz')).status !== 200) await new Promise((resolve) => setTimeout(resolve, 25));
}

/** The tile's parcels by key: verdict, score and geometry in degrees (feature order aside). */
async function drawn(base: string) {
  const response = await fetch(new URL(TILE, base), { headers: ACME });
  await checkFetchResponse('GET', response.url, response);
  expect(response.status).toBe(200);
  const layer = new VectorTile(new PbfReader(new Uint8Array(await response.arrayBuffer()))).layers.parcels!;
  const features = Array.from({ length: layer.length }, (_, i) => {
    const feature = layer.feature(i);
    return { properties: feature.properties, geometry: feature.toGeoJSON(X, Y, Z).geometry };
  });
  return features.sort((a, b) => String(a.properties.parcel_key).localeCompare(String(b.properties.parcel_key)));
}

describe.each(DATABASE_MODES)('the stored parcel index on %s', (mode) => {
  let database: DatabaseHandle;
  let vintageId: string;
  let expected: Awaited<ReturnType<typeof drawn>>;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-stored-parcels-e2e-'));
  const running = new Set<EmbeddedStack>();

  async function start(faults?: FaultInjector): Promise<{ stack: EmbeddedStack; client: HttpClient; url: string }> {
    const config = loadConfig({}, { port: 0, host: '127.0.0.1', dataDir, logLevel: 'silent', authDev: true });
    const started = await startEmbeddedStack({ config, logger: createLogger('silent'), database, faults });
    running.add(started);
    const stack = { ...started, close: () => (running.delete(started), started.close()) };
    return { stack, client: httpClient(stack.url), url: stack.url };
  }
  const storedParts = async () =>
    (await sql<{ parts: number }>`select count(*)::int as parts from discovery.vintage_parcel_shapes where vintage_id = ${vintageId}`.execute(database.db)).rows[0]!.parts;

  beforeAll(async () => {
    database = mode === 'postgres' ? await createTestPostgres() : await createTestPGlite();
    const { stack, client, url } = await start();
    expect((await client.get('/v1/me', { headers: ACME })).status).toBe(200);
    vintageId = (await loadMarket(database.db, MARKET, PARCELS)).vintageId;
    await entitleTenant(database.db, 'acme-stored', MARKET);
    expect((await client.post('/v1/buyboxes', { name: 'stored', spec: SPEC }, { headers: ACME })).status).toBe(201);
    expected = await drawn(url);
    expect(expected.length).toBeGreaterThan(10);
    await stack.close();
  });
  afterAll(async () => {
    for (const stack of running) await stack.close();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is stored by the import', async () => {
    expect(await storedParts()).toBeGreaterThan(0);
  });

  it("serves a restarted server's first tile from the stored index, never building it from the parcels' rows", async () => {
    const { stack, client, url } = await start(failAt(BUILD_FROM_ROWS));
    await ready(client);
    expect(await drawn(url)).toEqual(expected);
    await stack.close();
  });

  it('builds the index of a vintage stored without one from its rows once, stores it, and serves the next start from it', async () => {
    await sql`delete from discovery.vintage_parcel_shapes where vintage_id = ${vintageId}`.execute(database.db);
    const rebuilt = await start();
    expect(await drawn(rebuilt.url)).toEqual(expected);
    expect(await storedParts()).toBeGreaterThan(0);
    await rebuilt.stack.close();

    const restarted = await start(failAt(BUILD_FROM_ROWS));
    expect(await drawn(restarted.url)).toEqual(expected);
    await restarted.stack.close();
  });

  it('replaces damaged stored bytes with an index built from the rows', async () => {
    await sql`update discovery.vintage_parcel_shapes set data = ${Buffer.from('not an index')} where vintage_id = ${vintageId} and part = 0`.execute(database.db);
    const rebuilt = await start();
    expect(await drawn(rebuilt.url)).toEqual(expected);
    await rebuilt.stack.close();

    const restarted = await start(failAt(BUILD_FROM_ROWS));
    expect(await drawn(restarted.url)).toEqual(expected);
    await restarted.stack.close();
  });
});
