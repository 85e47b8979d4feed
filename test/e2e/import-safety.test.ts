// Refused layer imports through the CLI, against a server on PostgreSQL and on the embedded
// PGlite (where the command runs inside the server): each is refused with its reason, leaves the
// current versions as they were, and the server still answers over REST afterwards.

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '@landscreen/layer-io/testing';
import { httpClient, startTestStack, DATABASE_MODES, type TestDatabase, type TestStack } from '@landscreen/testing';
import { runLandscreen as run, startLandscreenServer } from '../support/cli-process.js';

const refused = (name: string) => fixture(`refused/${name}`);
/** Below the 398 plants, above the 254 counties. */
const LIMITS = { LAYER_MAX_FEATURES: '300' };

interface Target {
  env: Record<string, string>;
  get(url: string): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

async function postgresTarget(dir: string): Promise<Target> {
  const stack: TestStack = await startTestStack('postgres');
  return {
    env: { DATABASE_URL: (stack.stack.database as TestDatabase).url, DATA_DIR: dir, LOG_LEVEL: 'silent', ...LIMITS },
    get: (url) => stack.get(url),
    close: () => stack.close(),
  };
}

async function pgliteTarget(dir: string): Promise<Target> {
  const env = { DATA_DIR: dir, PORT: '0', LOG_LEVEL: 'info', ...LIMITS };
  const started = startLandscreenServer({ ...env, WORKER_EMBEDDED: '0', RUNS_WORKER_EMBEDDED: '0' });
  const server: ChildProcess = started.child;
  const client = httpClient(await started.url);
  return {
    env,
    get: (url) => client.get(url),
    close: async () => {
      if (server.exitCode !== null) return;
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGKILL');
      await exited;
    },
  };
}

describe.each(DATABASE_MODES)('refused layer imports through the CLI leave the server answering (%s)', (mode) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-import-safety-'));
  let target: Target;
  const currentVersions = async () => {
    const { body } = await target.get('/v1/meta/sources');
    return (body.sources as { id: string; current_version: { id: string } | null }[]).map((source) => [source.id, source.current_version?.id ?? null]);
  };

  beforeAll(async () => {
    target = mode === 'postgres' ? await postgresTarget(dir) : await pgliteTarget(dir);
    const good = await run(['import', 'layer', '--source', 'usgs_pad_us', '--file', fixture('counties.zip'), '--map', 'NAME=name'], target.env);
    expect(good.code, good.stdout + good.stderr).toBe(0);
  });
  afterAll(async () => {
    await target?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const deep = path.join(dir, 'deep.geojson');
  const REFUSALS = [
    { what: 'an empty FeatureCollection', args: ['--source', 'usgs_pad_us', '--file', refused('empty.geojson')], message: 'the file holds no features' },
    { what: 'a .shp/.dbf count mismatch', args: ['--source', 'usgs_pad_us', '--file', refused('dbf-mismatch.zip')], message: 'the .dbf holds 254 records but the .shp 50 shapes' },
    { what: 'a projected Shapefile zip without .prj', args: ['--source', 'usgs_pad_us', '--file', refused('noprj-albers.zip')], message: 'has no .prj and its coordinates' },
    { what: 'a zip bomb', args: ['--source', 'usgs_pad_us', '--file', refused('zip-bomb.zip')], message: 'more than LAYER_MAX_ZIP_RATIO (200); raise LAYER_MAX_ZIP_RATIO' },
    { what: 'coordinates nested 100,000 deep', args: ['--source', 'usgs_pad_us', '--file', deep], message: 'nests more than LAYER_MAX_DEPTH (32) levels deep' },
    { what: 'more features than LAYER_MAX_FEATURES', args: ['--source', 'eia_860_power_plants', '--file', fixture('plants.geojson')], message: 'more than LAYER_MAX_FEATURES (300); raise LAYER_MAX_FEATURES' },
    { what: 'a county GEOID mapped onto tract_geoid', args: ['--source', 'census_tiger', '--file', fixture('counties.geojson'), '--map', 'GEOID=tract_geoid'], message: 'is not an 11-digit Census tract GEOID' },
    { what: 'bad --where syntax', args: ['--source', 'usgs_pad_us', '--file', fixture('counties.zip'), '--where', "NAME = 'Travis"], message: `--where "NAME = 'Travis": unclosed text` },
  ];

  it.each(REFUSALS)('refuses $what, and the server still answers', async ({ args, message }) => {
    const depth = 100_000;
    writeFileSync(deep, `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":${'['.repeat(depth)}0${']'.repeat(depth)}}}]}`);
    const before = await currentVersions();
    const refusal = await run(['import', 'layer', ...args], target.env);
    expect(refusal.code, refusal.stdout + refusal.stderr).toBe(1);
    expect(refusal.stdout).toContain(message);
    expect(refusal.stdout).toContain('nothing was imported');
    expect((await target.get('/readyz')).status).toBe(200);
    expect(await currentVersions()).toEqual(before);
  });

  it('loads what --where keeps, and prints usage for --help', async () => {
    const kept = await run(['import', 'layer', '--source', 'usgs_pad_us', '--file', fixture('counties.zip'), '--map', 'NAME=name', '--where', "NAME LIKE 'B%'"], target.env);
    expect(kept.code, kept.stdout).toBe(0);
    expect(kept.stdout).toMatch(/with 19 features is now current/);
    const help = await run(['import', 'layer', '--help'], target.env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: landscreen import layer --source SOURCE --file PATH');
  });
});
