// `landscreen import layer` and `landscreen inspect` on the formats publishers ship (D38), run as
// processes of their own against a server on PostgreSQL and on the embedded PGlite: what each
// import loads is published at /v1/meta/sources, and what is refused leaves nothing behind.

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNTIES, PLANTS, fixture } from '@landscreen/layer-io/testing';
import { httpClient, startTestStack, DATABASE_MODES, type TestDatabase, type TestStack } from '@landscreen/testing';
import { runLandscreen as run, startLandscreenServer } from '../support/cli-process.js';

const VERSION_LINE = /source (\S+): layer version ([0-9a-f-]{36}) with ([\d,]+) features is now current/;

const IMPORTS = [
  { format: 'gpkg', source: 'census_tiger', args: ['--file', fixture('layers.gpkg'), '--layer', 'counties', '--map', 'NAME=county'], count: COUNTIES },
  { format: 'filegdb', source: 'census_tiger', args: ['--file', fixture('layers.gdb.zip'), '--layer', 'counties', '--map', 'NAME=county'], count: COUNTIES },
  { format: 'flatgeobuf', source: 'census_tiger', args: ['--file', fixture('counties.fgb'), '--map', 'NAME=county'], count: COUNTIES },
  { format: 'kmz', source: 'census_tiger', args: ['--file', fixture('counties.kmz'), '--map', 'name=county'], count: COUNTIES },
  {
    format: 'xlsx',
    source: 'eia_860_power_plants',
    args: ['--file', fixture('plants.xlsx'), '--sheet', 'Plant', '--header-row', '2', '--map', 'Plant Name=name,Nameplate Capacity (MW)=capacity_mw'],
    count: PLANTS,
  },
];

interface Target {
  env: Record<string, string>;
  sources(): Promise<{ id: string; current_version: { id: string; format: string; feature_count: number; crs: string } | null }[]>;
  close(): Promise<void>;
}

async function postgresTarget(dir: string): Promise<Target> {
  const stack: TestStack = await startTestStack('postgres');
  return {
    env: { DATABASE_URL: (stack.stack.database as TestDatabase).url, DATA_DIR: dir, LOG_LEVEL: 'silent' },
    sources: async () => (await stack.get('/v1/meta/sources')).body.sources,
    close: () => stack.close(),
  };
}

async function pgliteTarget(dir: string): Promise<Target> {
  const env = { DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'info' };
  const started = startLandscreenServer({ ...env, WORKER_EMBEDDED: '0', RUNS_WORKER_EMBEDDED: '0' });
  const server: ChildProcess = started.child;
  const client = httpClient(await started.url);
  return {
    env,
    sources: async () => (await client.get('/v1/meta/sources')).body.sources,
    close: async () => {
      if (server.exitCode !== null) return;
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGKILL');
      await exited;
    },
  };
}

describe.each(DATABASE_MODES)('layer files as publishers ship them, through the CLI (%s)', (mode) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-layer-formats-'));
  let target: Target;

  beforeAll(async () => {
    target = mode === 'postgres' ? await postgresTarget(dir) : await pgliteTarget(dir);
  });
  afterAll(async () => {
    await target?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(IMPORTS)('imports $format and publishes it as the current version', async ({ format, source, args, count }) => {
    const imported = await run(['import', 'layer', '--source', source, ...args], target.env);
    expect(imported.stderr).toBe('');
    expect(imported.code, imported.stdout).toBe(0);
    const [, , versionId, features] = VERSION_LINE.exec(imported.stdout)!;
    expect(Number(features.replaceAll(',', ''))).toBe(count);
    const published = (await target.sources()).find((entry) => entry.id === source);
    expect(published?.current_version).toMatchObject({ id: versionId, format, feature_count: count });
  });

  it('refuses a GeoPackage of several layers without --layer, and a PDF by name, leaving the current versions', async () => {
    const before = await target.sources();
    const several = await run(['import', 'layer', '--source', 'census_tiger', '--file', fixture('layers.gpkg')], target.env);
    expect(several.code).toBe(1);
    expect(several.stdout).toContain('holds 2 layers: choose one with --layer NAME ("counties", "plants")');
    const pdf = path.join(dir, 'Power_Plants.pdf');
    writeFileSync(pdf, '%PDF-1.7\n1 0 obj\n<<>>\nendobj\n');
    const refused = await run(['import', 'layer', '--source', 'eia_860_power_plants', '--file', pdf], target.env);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/Power_Plants\.pdf: is a PDF document, not a layer file; readable formats are: GeoJSON, .*GeoPackage, FileGDB .*XLSX/);
    expect(refused.stdout).toContain('nothing was imported; the current version of eia_860_power_plants is unchanged');
    expect(await target.sources()).toEqual(before);
  });
});

describe('landscreen inspect', () => {
  it('lists the layers of a GeoPackage with kinds, CRS, counts and attributes, and proposes the --map for a source', async () => {
    const inspected = await run(['inspect', fixture('layers.gpkg'), '--source', 'eia_860_power_plants'], { DATA_DIR: os.tmpdir(), LOG_LEVEL: 'silent' });
    expect(inspected.code, inspected.stdout + inspected.stderr).toBe(0);
    const text = inspected.stdout;
    expect(text).toContain('layers.gpkg: gpkg, 2 layers');
    expect(text).toMatch(/layer counties\n {2}geometry: MultiPolygon\n {2}crs: EPSG:4326\n {2}features: 254\n {2}attributes:\n {4}GEOID +string\n {4}NAME +string\n {4}COUNTYFP +integer/);
    expect(text).toMatch(/layer plants\n {2}geometry: Point\n {2}crs: EPSG:4326\n {2}features: 398/);
    expect(text).toContain(
      `import: landscreen import layer --source eia_860_power_plants --file ${fixture('layers.gpkg')} --layer plants --map 'Plant Name=name,Nameplate Capacity (MW)=capacity_mw'`,
    );
    expect(text).toContain('no attribute found for: primary_fuel');
  });

  it('reads an XLSX with a title row above its header and a FileGDB zip', async () => {
    const xlsx = await run(['inspect', fixture('plants.xlsx'), '--source', 'eia_860_power_plants'], { DATA_DIR: os.tmpdir(), LOG_LEVEL: 'silent' });
    expect(xlsx.stdout).toMatch(/layer Plant\n {2}geometry: Point\n {2}crs: EPSG:4326\n {2}features: 398\n {2}attributes:\n {4}Plant Code +integer/);
    const gdb = await run(['inspect', fixture('layers.gdb.zip'), '--source', 'census_tiger'], { DATA_DIR: os.tmpdir(), LOG_LEVEL: 'silent' });
    expect(gdb.code).toBe(0);
    expect(gdb.stdout).toContain('layers.gdb.zip: filegdb, 2 layers');
    expect(gdb.stdout).toContain(`--layer counties --map GEOID=tract_geoid,NAME=county`);
  });
});
