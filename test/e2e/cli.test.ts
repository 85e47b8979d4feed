import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFetchResponse } from '@landscreen/testing';
import { runLandscreen as run, startLandscreenServer } from '../support/cli-process.js';

describe('the landscreen CLI and the embedded default', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-cli-'));
  const env = { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' };
  let server: ChildProcess;
  let url: string;

  beforeAll(async () => {
    const started = startLandscreenServer(env);
    server = started.child;
    url = await started.url;
  });

  afterAll(() => {
    if (server.exitCode === null) server.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves the gateway from a fresh data directory, migrated and ready', async () => {
    // /readyz gives each service 1.2 s to answer; on a busy machine the first asks may run out of it.
    let response = await fetch(`${url}/readyz`);
    while (response.status === 503) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      response = await fetch(`${url}/readyz`);
    }
    await checkFetchResponse('GET', response.url, response);
    expect(response.status).toBe(200);
  });

  it('runs operator commands through the running server (PGlite has one owner)', async () => {
    const result = await run(['migrate'], env);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('auth: up to date');
  });

  it('refuses a second server on the same data directory', async () => {
    const result = await run(['serve'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('in use by another landscreen process');
  });

  it('shuts down gracefully on SIGTERM, releasing the data directory', async () => {
    const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(path.join(dataDir, 'landscreen.lock'))).toBe(false);
  });

  it('opens the database itself when no server runs', async () => {
    const result = await run(['migrate'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('catalog: up to date');
  });

  it('imports a parcel file as a new vintage, and refuses a file with a bad row, naming its line', async () => {
    const good = path.join(dataDir, 'parcels.csv');
    writeFileSync(good, 'apn,address,lat,lon,acres,zoning,nearest_substation_distance_m\nA-1,1 Main St,30.1,-97.1,60,industrial,1200\nA-2,2 Main St,30.2,-97.2,80,agricultural,\n');
    const imported = await run(['import', 'parcels', '--market', 'cli-tx', '--file', good], env);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/market cli-tx: vintage [0-9a-f-]{36} with 2 parcels is now current/);

    const bad = path.join(dataDir, 'bad.csv');
    writeFileSync(bad, 'apn,lat,lon,acres\nB-1,30.1,-97.1,10\nB-2,30.2,-97.2,many\n');
    const refused = await run(['import', 'parcels', '--market', 'cli-tx', '--file', bad], env);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('line 3');
    expect(refused.stdout).toContain('nothing was imported');

    const tenant = await run(['tenant', 'create', '--slug', 'cli-co', '--name', 'CLI Co'], env);
    expect(tenant.code).toBe(0);
    expect((await run(['entitle', '--tenant', 'cli-co', '--market', 'cli-tx'], env)).stdout).toContain('cli-co is entitled to cli-tx');
    // Four CLI processes, each opening PGlite and checking every schema's migrations: ~6 s apiece
    // on a loaded 2-core machine.
  });

  it('answers usage errors with exit code 2', async () => {
    const result = await run(['frobnicate'], env);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('unknown command');
  });
});
