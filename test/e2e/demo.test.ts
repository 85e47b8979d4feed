// `landscreen demo` through the running embedded server (PGlite, the control socket): its parcels
// are loaded without point data, its synthetic layers are imported and `prepare` writes the facts
// the buy box of the README ranks on — each equal to what the engine answers at the parcel's
// point, with the layer version it came from.

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFetchResponse } from '@landscreen/testing';
import { runLandscreen as run, startLandscreenServer } from '../support/cli-process.js';

const DEMO = { authorization: 'Bearer dev:demo@landscreen.local', 'x-tenant': 'demo', 'content-type': 'application/json' };
// The buy box `landscreen demo` prints (and the README shows), on prepared facts.
const DC_SPEC = {
  markets: ['demo-tx'],
  must: [
    { field: 'acres', op: '>=', value: 50 },
    { field: 'within_floodplain_polygon', op: '=', value: false, unknown: 'review' },
  ],
  preferred: [
    { field: 'nearest_substation_distance_m', op: '<=', value: 3000, weight: 3 },
    { field: 'zoning', op: '=', value: 'industrial', weight: 1 },
  ],
  verdict_cutoffs: { pursue: 70, monitor: 40 },
};
const UTILITY_FACTS = ['nearest_substation_distance_m', 'nearest_transmission_line_distance_m', 'substations_within_radius_count'];

describe('landscreen demo through the running embedded server', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-demo-'));
  const env = { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' };
  let server: ChildProcess;
  let url: string;
  const call = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${url}${route}`, { method, headers: DEMO, body: body === undefined ? undefined : JSON.stringify(body) });
    await checkFetchResponse(method, response.url, response);
    return { status: response.status, body: (await response.json()) as any };
  };

  beforeAll(async () => {
    // A loaded 2-core CI machine can take over a minute to start the whole stack on PGlite.
    const started = startLandscreenServer(env);
    server = started.child;
    url = await started.url;
  });
  afterAll(() => {
    if (server?.exitCode === null) server.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loads parcels, writes and imports the layers, prepares the facts, step by step', async () => {
    const demo = await run(['demo', '--parcels', '300'], env);
    expect(demo.stderr).toBe('');
    expect(demo.code, demo.stdout).toBe(0);
    for (const step of ['1/4 parcels', '2/4 layers', '3/4 prepare', '4/4 tenant']) expect(demo.stdout).toContain(step);
    expect(demo.stdout).toMatch(/layers: \d+ files written to /);
    expect(demo.stdout).toMatch(/layers: importing hifld_substations \(\d+\/\d+\): version [0-9a-f-]{36}/);
    expect(demo.stdout).toMatch(/market demo-tx: 300 parcels with \d+ point-data fields from layers/);
    const layers = await run(['layers'], env);
    expect(layers.stdout).toContain('hifld_substations');
  });

  it('ranks the README buy box on facts that equal the engine at each parcel, traced to the layer version', async () => {
    expect((await call('POST', '/v1/buyboxes', { name: 'dc', spec: DC_SPEC })).status).toBe(201);
    const ranked = await call('POST', '/v2/discovery/query', { buy_box: 'dc', limit: 5 });
    expect(ranked.status, JSON.stringify(ranked.body)).toBe(200);
    expect(ranked.body.results.length).toBeGreaterThan(0);
    const sources = await call('GET', '/v1/meta/sources');
    const substations = sources.body.sources.find((source: { id: string }) => source.id === 'hifld_substations').current_version;
    for (const result of ranked.body.results.slice(0, 3)) {
      // Plausible for the buy box: a grid nearby, known (not invented: the parcel file had none).
      expect(typeof result.facts.nearest_substation_distance_m).toBe('number');
      expect(typeof result.facts.within_floodplain_polygon).toBe('boolean');
      expect(result.provenance.nearest_substation_distance_m).toMatchObject({ source: 'hifld_substations', layer_version: substations.id });
      const findings = await call('GET', `/v1/internal/utility-findings?vintage_id=${ranked.body.vintage_id}&parcel_key=${encodeURIComponent(result.parcel_key)}`);
      expect(findings.status, JSON.stringify(findings.body)).toBe(200);
      expect(findings.body.location).toEqual({ lat: result.lat, lon: result.lon });
      for (const field of UTILITY_FACTS) expect(result.facts[field], field).toBe(findings.body.findings[field]);
    }
  });

  it('runs again without importing the same layers twice', async () => {
    const again = await run(['demo', '--parcels', '300'], env);
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toContain('layers: using the');
    expect(again.stdout).toMatch(/layers: \d+ sources already have this demo's layer as current; not imported again/);
    expect(again.stdout).not.toContain('layers: importing');
  });
});
