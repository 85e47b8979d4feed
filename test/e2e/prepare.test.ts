// `landscreen prepare` as a process of its own against the running server's PostgreSQL: clear
// errors, a progress line, and a buy box ranking the market on the prepared fact over HTTP.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLandscreen as run } from '../support/cli-process.js';
import { entitleTenant, loadMarket, startTestStack, type TestDatabase, type TestStack } from '@landscreen/testing';

const ACME = { authorization: 'Bearer dev:ann@acme.test', 'x-tenant': 'acme' };

const point = (lon: number, lat: number) => ({ type: 'Point' as const, coordinates: [lon, lat] });
// Hand-computed: 0.001° and 0.01° of latitude at 35°N are 110.9 m and 1,109.4 m; 0.05° is 5,547 m.
const PARCELS = [
  { geometry: point(-97, 35.01), properties: { parcel_key: 'mid', acres: 40 } },
  { geometry: point(-97, 35.001), properties: { parcel_key: 'near', acres: 40 } },
  { geometry: point(-97, 35.05), properties: { parcel_key: 'far', acres: 40 } },
];

describe('landscreen prepare against the running server on PostgreSQL', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-prepare-e2e-'));
  let stack: TestStack;
  let env: Record<string, string>;
  let baseVintage: string;

  beforeAll(async () => {
    stack = await startTestStack('postgres');
    env = { DATABASE_URL: (stack.stack.database as TestDatabase).url, DATA_DIR: dir, LOG_LEVEL: 'silent' };
    expect((await stack.get('/v1/me', { headers: ACME })).status).toBe(200);
    baseVintage = (await loadMarket(stack.stack.database.db, 'prep-tx', PARCELS)).vintageId;
    await entitleTenant(stack.stack.database.db, 'acme', 'prep-tx');
  });
  afterAll(async () => {
    await stack?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says what is wrong: no layers, unknown market, unknown field with did-you-mean', async () => {
    const bare = await run(['prepare', '--market', 'prep-tx'], env);
    expect(bare.code).toBe(1);
    expect(bare.stdout).toContain('error: no layer is loaded for any requested field');

    const file = path.join(dir, 'substations.geojson');
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: point(-97, 35), properties: { max_voltage_kv: 345 } }] }));
    expect((await run(['import', 'layer', '--source', 'hifld_substations', '--file', file], env)).code).toBe(0);

    const nowhere = await run(['prepare', '--market', 'nowhere'], env);
    expect(nowhere.code).toBe(1);
    expect(nowhere.stdout).toContain('error: no market "nowhere"');
    expect(nowhere.stdout).toContain('the current vintage is unchanged');
    const typo = await run(['prepare', '--market', 'prep-tx', '--fields', 'nearest_substation_distanse_m'], env);
    expect(typo.code).toBe(1);
    expect(typo.stdout).toContain('did you mean "nearest_substation_distance_m"?');
    const usage = await run(['prepare'], env);
    expect(usage.code).toBe(2);
  });

  it('writes a new current vintage that a buy box ranks on the prepared distance over HTTP', async () => {
    const prepared = await run(['prepare', '--market', 'prep-tx'], env);
    expect(prepared.stderr).toBe('');
    expect(prepared.code).toBe(0);
    expect(prepared.stdout).toContain(`screening 3 parcels of vintage ${baseVintage} on `);
    expect(prepared.stdout).toMatch(/preparing prep-tx \[#{30}\] 100% 3 parcels/);
    const [, vintageId] = /vintage ([0-9a-f-]{36}) with 3 prepared parcels is now current/.exec(prepared.stdout)!;
    expect(vintageId).not.toBe(baseVintage);

    const spec = {
      markets: ['prep-tx'],
      must: [{ field: 'nearest_substation_distance_m', op: 'lte', value: 2000 }],
      preferred: [{ field: 'nearest_substation_distance_m', op: 'lte', value: 500, weight: 1 }],
      verdict_cutoffs: { pursue: 70, monitor: 40 },
    };
    expect((await stack.post('/v1/buyboxes', { name: 'Near the grid', spec }, { headers: ACME })).status).toBe(201);
    const response = await stack.post('/v2/discovery/query', { buy_box: 'Near the grid' }, { headers: ACME });
    expect(response.status).toBe(200);
    expect(response.body.vintage_id).toBe(vintageId);
    expect(response.body.results.map((row: any) => [row.parcel_key, row.score])).toEqual([
      ['near', 100],
      ['mid', 0],
    ]);
    const [near, mid] = response.body.results;
    expect(near.facts.nearest_substation_distance_m).toBeCloseTo(110.9, 0);
    expect(Math.abs(mid.facts.nearest_substation_distance_m - 1109.4) / 1109.4).toBeLessThan(0.005);
    expect(near.facts.nearest_substation_max_voltage_kv).toBe(345);
    expect(near.facts.acres).toBe(40);
    // Each prepared fact says where it came from (stored once for the vintage, shown per parcel),
    // nulls with their reason; the imported facts stay "import".
    const [{ id: layerVersion }] = (
      await sql<{ id: string }>`select id from catalog.layer_versions where source = 'hifld_substations' order by seq desc limit 1`.execute(stack.stack.database.db)
    ).rows;
    const fromLayer = { source: 'hifld_substations', layer_version: layerVersion, formula_version: null, vintage_id: vintageId };
    for (const row of [near, mid]) {
      expect(row.provenance.nearest_substation_distance_m).toEqual(fromLayer);
      expect(row.provenance.nearest_substation_max_voltage_kv).toEqual(fromLayer);
      expect(row.provenance.nearest_substation_status).toEqual({ ...fromLayer, null_reason: 'not_published' });
      expect(row.provenance.acres).toEqual({ source: 'import', vintage_id: vintageId });
    }
  });
});
