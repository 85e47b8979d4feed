// An interrupted `landscreen import layer` leaves nothing behind, wherever the import runs: through
// the embedded server's control socket (PGlite has one owner), or in the CLI's own process on
// PostgreSQL. Ctrl-C (SIGINT) cancels and rolls back; a killed CLI (SIGKILL) closes its connection,
// which cancels the import on the embedded server and rolls it back on PostgreSQL. The server goes
// on answering, and a later import becomes current as usual.

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient, startTestStack, type HttpClient, type TestDatabase, type TestStack } from '@landscreen/testing';
import { writeBigPolygonLayer } from '../support/big-layer.js';
import { runLandscreen as run, spawnLandscreen, startLandscreenServer } from '../support/cli-process.js';

const SOURCE = 'usfws_nwi';
const VERSION_LINE = /layer version ([0-9a-f-]{36}) with ([\d,]+) features is now current/;

interface Setting {
  env: Record<string, string>;
  http: HttpClient;
}

function smallLayer(dir: string, name: string): string {
  const file = path.join(dir, `${name}.geojson`);
  const ring = [[-97, 30], [-96.999, 30], [-96.999, 30.001], [-97, 30.001], [-97, 30]];
  writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { WETLAND_TYPE: name }, geometry: { type: 'Polygon', coordinates: [ring] } }] }));
  return file;
}

/** Starts an import of the big file; resolves once it has stored its first chunk (its first progress line). */
function startBigImport(env: Record<string, string>, file: string): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawnLandscreen(['import', 'layer', '--source', SOURCE, '--file', file, '--format', 'ndjson', '--name', 'big', '--map', 'WETLAND_TYPE=wetland_type'], env);
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (/importing .* [1-9][\d,]* features/.test(output)) resolve({ child, output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => reject(new Error(`the import ended (${code}) before it showed progress:\n${output}`)));
  });
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

async function currentVersion(http: HttpClient): Promise<{ id: string; name: string; feature_count: number } | null> {
  const sources = await http.get('/v1/meta/sources');
  expect(sources.status).toBe(200);
  return sources.body.sources.find((source: { id: string }) => source.id === SOURCE).current_version;
}

async function versionLines(env: Record<string, string>): Promise<string[]> {
  const listed = await run(['layers'], env);
  expect(listed.code, listed.stdout + listed.stderr).toBe(0);
  return listed.stdout.split('\n').filter((line) => line.startsWith(`${SOURCE} `));
}

function cancellationCases(label: string, setting: () => Setting, dir: string, bigFile: () => string): void {
  describe(label, () => {
    let before: string;

    it('loads a first version, which stays current through what follows', async () => {
      const { env, http } = setting();
      const imported = await run(['import', 'layer', '--source', SOURCE, '--file', smallLayer(dir, 'first'), '--map', 'WETLAND_TYPE=wetland_type'], env);
      expect(imported.code, imported.stdout + imported.stderr).toBe(0);
      before = VERSION_LINE.exec(imported.stdout)![1];
      expect((await currentVersion(http))?.id).toBe(before);
    });

    it('Ctrl-C (SIGINT) once progress shows: the import rolls back, says so, and nothing becomes current', async () => {
      const { env, http } = setting();
      const { child, output } = await startBigImport(env, bigFile());
      child.kill('SIGINT');
      const { code } = await exitOf(child);
      expect(code, output()).toBe(130);
      expect(output()).toContain('the import was cancelled');
      expect(output()).toContain('nothing was imported');
      expect(output()).toMatch(/ETA \d/);
      expect((await http.get('/healthz')).status).toBe(200);
      expect((await currentVersion(http))?.id).toBe(before);
      expect(await versionLines(env)).toHaveLength(1);
    });

    it('a killed CLI (SIGKILL) once progress shows: nothing becomes current, and a later import is current', async () => {
      const { env, http } = setting();
      const { child } = await startBigImport(env, bigFile());
      child.kill('SIGKILL');
      expect((await exitOf(child)).signal).toBe('SIGKILL');
      expect((await http.get('/healthz')).status).toBe(200);
      expect((await currentVersion(http))?.id).toBe(before);

      // The next import waits for nothing left of the killed one and becomes current; the killed
      // one never does, not even later (the listing has exactly the two finished versions).
      const later = await run(['import', 'layer', '--source', SOURCE, '--file', smallLayer(dir, 'later'), '--map', 'WETLAND_TYPE=wetland_type'], env);
      expect(later.code, later.stdout + later.stderr).toBe(0);
      const laterId = VERSION_LINE.exec(later.stdout)![1];
      expect((await currentVersion(http))?.id).toBe(laterId);
      const lines = await versionLines(env);
      expect(lines).toHaveLength(2);
      expect(lines.join('\n')).not.toContain(' big ');
    });
  });
}

describe('an interrupted layer import', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-import-cancel-'));
  const big = path.join(dir, 'big.ndjson');

  beforeAll(async () => {
    await writeBigPolygonLayer(big, 150_000);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe('embedded (PGlite): the import runs in the server, the CLI talks to it over the control socket', () => {
    const dataDir = path.join(dir, 'data');
    let server: ChildProcess;
    let setting: Setting;
    beforeAll(async () => {
      const env = { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn' };
      const started = startLandscreenServer({ ...env, LOG_LEVEL: 'info' });
      server = started.child;
      setting = { env, http: httpClient(await started.url) };
    });
    afterAll(() => {
      if (server?.exitCode === null) server.kill('SIGKILL');
    });
    cancellationCases('through the embedded server', () => setting, dir, () => big);
    it('the server is still the one that answered throughout', () => {
      expect(server.exitCode).toBeNull();
    });
  });

  describe('PostgreSQL: the import runs in the CLI process, in its own transaction', () => {
    let stack: TestStack;
    let setting: Setting;
    beforeAll(async () => {
      stack = await startTestStack('postgres');
      setting = { env: { DATABASE_URL: (stack.stack.database as TestDatabase).url, DATA_DIR: path.join(dir, 'pg'), LOG_LEVEL: 'silent' }, http: stack };
    });
    afterAll(async () => {
      await stack?.close();
    });
    cancellationCases('the CLI on its own', () => setting, dir, () => big);
  });
});
