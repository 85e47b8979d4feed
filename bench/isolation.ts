/**
 * npm run bench:isolation — does one caller's heavy work stall everyone else (D39)? `/healthz`
 * latency (p50, p99, max) sampled every 20 ms from a separate process while each heavy job runs,
 * beside an idle baseline measured in the same run, in the embedded default (PGlite, in-process
 * bus and runs worker) and on PostgreSQL + NATS JetStream (the same `landscreen serve`, embedded
 * services and runs worker, DATABASE_URL and NATS_URL set). Loads:
 * - a 100,000-location x 20-field run (POST /v1/runs to succeeded), and the DELETE of another one
 *   sent while it is being processed (its latency, and the locations processed after it);
 * - 20 site reports (GET /v1/properties/{id}/pdf) rendering at once, three rounds;
 * - a 30 MB invalid run body, signed in (four at once) and anonymous;
 * - a 1,000,000-vertex transmission-line layer imported with `landscreen import layer` (through
 *   the server's control socket in the embedded default), then the first fetch/batch of one of its
 *   fields, which loads the new version into the server's engine.
 * Target: /healthz max <= 250 ms under every load, in both modes.
 * Environment: BENCH_MODES (`embedded,postgres`), BENCH_LOADS (all: `run,cancel,reports,body,import`),
 * BENCH_RUN_LOCATIONS (100000), BENCH_PARCELS (2000), TEST_DATABASE_URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DEMO_CENTER } from '@landscreen/demo-market';
import { FIELDS } from '@landscreen/field-catalog';
import { NatsServerProcess } from '../packages/events/src/test-nats-server.js';
import { landscreen } from './lib/cli.js';
import { freshDatabase } from './lib/database.js';
import { percentile } from './lib/measure.js';
import { freePort, startLandscreen, stop, waitUntilReady } from './lib/processes.js';

const MODES = (process.env.BENCH_MODES ?? 'embedded,postgres').split(',');
const LOADS = new Set((process.env.BENCH_LOADS ?? 'run,cancel,reports,body,import').split(','));
const RUN_LOCATIONS = Number(process.env.BENCH_RUN_LOCATIONS ?? 100_000);
const PARCELS = Number(process.env.BENCH_PARCELS ?? 2_000);
const TARGET_MS = 250;
const HEADERS = { authorization: 'Bearer dev:demo@landscreen.local', 'x-tenant': 'demo' };
const PROBE = new URL('./lib/latency-probe.mjs', import.meta.url).pathname;

/** Starts the /healthz probe; `stop()` answers its samples (ms; -1 for a failed request). */
function startProbe(base: string): { stop(): Promise<number[]> } {
  const child = spawn(process.execPath, [PROBE, `${base}/healthz`, '20'], { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    async stop() {
      child.stdin!.write('stop\n');
      await exited;
      return JSON.parse(output) as number[];
    },
  };
}

/** Runs `load` with the probe sampling /healthz; answers the table row. */
async function probed(base: string, label: string, load: () => Promise<string | void>): Promise<string> {
  const probe = startProbe(base);
  // Let the probe's first samples land before the load starts.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const started = performance.now();
  let note: string | void;
  try {
    note = await load();
  } catch (error) {
    note = `the load FAILED: ${(error as Error).message}${(error as Error).cause ? ` (${String((error as Error).cause)})` : ''}`;
  }
  const ms = performance.now() - started;
  const samples = await probe.stop();
  const line = row(label, samples, `${(ms / 1000).toFixed(1)} s of load${note ? `; ${note}` : ''}`);
  console.error(line);
  return line;
}

function row(label: string, samples: number[], note: string): string {
  const failed = samples.filter((ms) => ms < 0).length;
  const sorted = samples.filter((ms) => ms >= 0).sort((a, b) => a - b);
  const max = sorted[sorted.length - 1] ?? Number.NaN;
  const fixed = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
  const verdict = max <= TARGET_MS && failed === 0 ? 'meets' : 'MISSES';
  return `| ${label} | ${sorted.length} | ${fixed(percentile(sorted, 0.5))} | ${fixed(percentile(sorted, 0.99))} | ${fixed(max)} | ${verdict} the ${TARGET_MS} ms target${failed ? `, ${failed} failed` : ''}; ${note} |`;
}

async function call(base: string, method: string, route: string, body?: unknown, headers: Record<string, string> = HEADERS): Promise<{ status: number; body: any }> {
  const response = await fetch(base + route, {
    method,
    headers: { ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: response.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : text };
}

function expectStatus<T extends { status: number; body: any }>(answer: T, status: number, what: string): T {
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  return answer;
}

/** mulberry32: the same points on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function runLocations(count: number, seed: number) {
  const random = prng(seed);
  return Array.from({ length: count }, (_, i) => ({ lat: DEMO_CENTER.lat + (random() - 0.5) * 0.4, lon: DEMO_CENTER.lon + (random() - 0.5) * 0.4, id: `p${i}` }));
}

const RUN_FIELDS = FIELDS.filter((field) => field.billing.metered_group === null).slice(0, 20).map((field) => field.name);

async function waitForRun(base: string, runId: string, until: (run: any) => boolean): Promise<any> {
  for (;;) {
    const run = expectStatus(await call(base, 'GET', `/v1/runs/${runId}`), 200, 'GET run').body;
    if (until(run)) return run;
    if (!['queued', 'running'].includes(run.status)) throw new Error(`run ${runId} ended ${run.status} (${run.error})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function runLoad(base: string): Promise<string> {
  const submitted = expectStatus(await call(base, 'POST', '/v1/runs', { locations: runLocations(RUN_LOCATIONS, 29), fields: RUN_FIELDS }), 202, 'POST /v1/runs');
  await waitForRun(base, submitted.body.run_id, (run) => run.status === 'succeeded');
  return `${RUN_LOCATIONS.toLocaleString('en-US')} x ${RUN_FIELDS.length} run submitted and processed`;
}

/** A run cancelled once a few chunks are done: the DELETE's latency and what was processed after it. */
async function cancelLoad(base: string): Promise<string> {
  const submitted = expectStatus(await call(base, 'POST', '/v1/runs', { locations: runLocations(RUN_LOCATIONS, 31), fields: RUN_FIELDS }), 202, 'POST /v1/runs');
  const runId = submitted.body.run_id;
  await waitForRun(base, runId, (run) => run.progress.done >= 3_000);
  const started = performance.now();
  const cancelled = expectStatus(await call(base, 'DELETE', `/v1/runs/${runId}`), 200, 'DELETE run').body;
  const deleteMs = performance.now() - started;
  // Whatever was in flight when the DELETE committed can no longer be written.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const after = expectStatus(await call(base, 'GET', `/v1/runs/${runId}`), 200, 'GET run').body;
  return `DELETE answered in ${deleteMs.toFixed(0)} ms (${cancelled.status}, ${cancelled.progress.done} done, ${cancelled.credits.refunded.toLocaleString('en-US')} credits refunded); ${after.progress.done - cancelled.progress.done} locations written after it`;
}

async function promoteBest(base: string, count: number): Promise<string[]> {
  const spec = { markets: ['demo-tx'], must: [{ field: 'acres', op: 'gte', value: 5 }], preferred: [{ field: 'acres', op: 'gte', value: 100, weight: 1 }], verdict_cutoffs: { pursue: 70, monitor: 40 } };
  const saved = await call(base, 'POST', '/v1/buyboxes', { name: 'isolation', spec });
  if (saved.status !== 201 && saved.status !== 409) expectStatus(saved, 201, 'buy box');
  const page = expectStatus(await call(base, 'POST', '/v2/discovery/query', { buy_box: 'isolation', limit: count }), 200, 'query').body;
  const ids: string[] = [];
  for (const result of page.results) {
    ids.push(expectStatus(await call(base, 'POST', '/v2/pipeline', { parcel_key: result.parcel_key, buy_box: 'isolation', query_hash: page.query_hash }), 202, 'promotion').body.property_id);
  }
  return ids;
}

async function reportsLoad(base: string, propertyIds: string[]): Promise<string> {
  let bytes = 0;
  for (let round = 0; round < 3; round++) {
    const answers = await Promise.all(propertyIds.map((id) => fetch(`${base}/v1/properties/${id}/pdf`, { headers: HEADERS })));
    for (const answer of answers) {
      if (answer.status !== 200) throw new Error(`a site report answered ${answer.status}`);
      bytes += (await answer.arrayBuffer()).byteLength;
    }
  }
  return `${propertyIds.length * 3} site reports, ${Math.round(bytes / 1024)} KiB`;
}

/** About 30 MB of run body whose every location is invalid (lat a word): 422 signed in, 401 anonymous. */
function invalidRunBody(): string {
  const locations: string[] = [];
  let length = 0;
  for (let i = 0; length < 30_000_000; i++) {
    const location = `{"lat":"north-${i}","lon":-97.7,"id":"bad-location-${String(i).padStart(12, '0')}"}`;
    locations.push(location);
    length += location.length + 1;
  }
  return `{"fields":["nearest_substation_distance_m"],"locations":[${locations.join(',')}]}`;
}

async function bodyLoad(base: string, body: string, headers: Record<string, string>, copies: number, expected: number): Promise<string> {
  const answers = await Promise.all(Array.from({ length: copies }, () => call(base, 'POST', '/v1/runs', body, headers)));
  for (const answer of answers) expectStatus(answer, expected, 'the 30 MB body');
  return `${copies} x ${(body.length / 1e6).toFixed(0)} MB answered ${expected}`;
}

/** A transmission-line layer of `vertices` vertices in all (1,000 lines) as GeoJSON. */
function writeLineLayer(file: string, vertices: number): void {
  const lines = 1000;
  const perLine = Math.floor(vertices / lines);
  const random = prng(7);
  const features: string[] = [];
  for (let l = 0; l < lines; l++) {
    let lon = DEMO_CENTER.lon + (random() - 0.5) * 0.6;
    let lat = DEMO_CENTER.lat + (random() - 0.5) * 0.6;
    const coordinates: string[] = [];
    for (let v = 0; v < perLine; v++) {
      lon += (random() - 0.5) * 0.0004;
      lat += (random() - 0.5) * 0.0004;
      coordinates.push(`[${lon.toFixed(6)},${lat.toFixed(6)}]`);
    }
    features.push(`{"type":"Feature","properties":{"voltage_kv":${69 + (l % 5) * 69},"status":"IN SERVICE"},"geometry":{"type":"LineString","coordinates":[${coordinates.join(',')}]}}`);
  }
  writeFileSync(file, `{"type":"FeatureCollection","features":[\n${features.join(',\n')}\n]}\n`);
}

async function benchMode(mode: string): Promise<string[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-bench-isolation-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = { DATA_DIR: dir, PORT: String(port), AUTH_DEV: '1', WORKER_EMBEDDED: '0', DB_CONNECT_TIMEOUT_MS: '30000' };
  let nats: NatsServerProcess | undefined;
  if (mode === 'postgres') {
    env.DATABASE_URL = await freshDatabase('landscreen_bench_isolation');
    nats = new NatsServerProcess(await freePort(), path.join(dir, 'nats'));
    await nats.start();
    env.NATS_URL = nats.url;
  }
  let server: ChildProcess | undefined;
  try {
    console.error(`isolation (${mode}): the demo market of ${PARCELS} parcels and its layers ...`);
    await landscreen(['demo', '--parcels', String(PARCELS)], env);
    await landscreen(['plan', 'set', '--tenant', 'demo', '--plan', 'market'], env);
    server = startLandscreen(['serve'], env);
    await waitUntilReady(`${base}/readyz`, 180_000);
    const rows: string[] = [];
    const label = (text: string) => `${mode}: ${text}`;
    const propertyIds = await promoteBest(base, 20);
    // The render workers are warm once one report has been answered.
    const first = performance.now();
    if ((await fetch(`${base}/v1/properties/${propertyIds[0]}/pdf`, { headers: HEADERS })).status !== 200) throw new Error('the first site report failed');
    console.error(`isolation (${mode}): the first site report after the start took ${(performance.now() - first).toFixed(0)} ms`);
    rows.push(await probed(base, label('idle'), () => new Promise((resolve) => setTimeout(resolve, 5_000))));
    if (LOADS.has('run')) {
      console.error(`isolation (${mode}): a ${RUN_LOCATIONS} location run ...`);
      rows.push(await probed(base, label(`a ${RUN_LOCATIONS.toLocaleString('en-US')}-location run`), () => runLoad(base)));
    }
    if (LOADS.has('cancel')) {
      console.error(`isolation (${mode}): a run cancelled mid-way ...`);
      rows.push(await probed(base, label('DELETE of a run being processed'), () => cancelLoad(base)));
    }
    if (LOADS.has('reports')) {
      console.error(`isolation (${mode}): 20 site reports at once ...`);
      rows.push(await probed(base, label('20 site reports rendering at once'), () => reportsLoad(base, propertyIds)));
    }
    if (LOADS.has('body')) {
      console.error(`isolation (${mode}): 30 MB invalid bodies ...`);
      const body = invalidRunBody();
      rows.push(await probed(base, label('a 30 MB invalid run body, signed in, 4 at once'), () => bodyLoad(base, body, HEADERS, 4, 422)));
      rows.push(await probed(base, label('a 30 MB run body, anonymous, 4 at once'), () => bodyLoad(base, body, {}, 4, 401)));
    }
    if (LOADS.has('import')) {
      console.error(`isolation (${mode}): a 1,000,000-vertex layer import ...`);
      const file = path.join(dir, 'lines.geojson');
      writeLineLayer(file, 1_000_000);
      rows.push(await probed(base, label('a 1,000,000-vertex layer import'), async () => {
        await landscreen(['import', 'layer', '--source', 'hifld_transmission_lines', '--file', file], env);
        return 'landscreen import layer (the file read in a worker thread)';
      }));
      rows.push(await probed(base, label('the new 1,000,000-vertex version loaded into the engine'), async () => {
        const started = performance.now();
        const locations = runLocations(10, 37);
        const answer = expectStatus(await call(base, 'POST', '/v1/fetch/batch', { locations, fields: ['nearest_transmission_line_distance_m'] }), 200, 'fetch/batch');
        const found = answer.body.results.filter((result: any) => typeof result.values.nearest_transmission_line_distance_m === 'number').length;
        return `the first fetch/batch of a line field after the import answered in ${(performance.now() - started).toFixed(0)} ms (${found} of 10 distances)`;
      }));
    }
    return rows;
  } finally {
    if (server) await stop(server);
    await nats?.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main() {
  const rows: string[] = [];
  for (const mode of MODES) rows.push(...(await benchMode(mode)));
  console.log(`npm run bench:isolation — ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} — ${os.cpus().length} cores, Node ${process.version}; /healthz every 20 ms from another process`);
  console.log('');
  console.log('| /healthz while | n | p50 ms | p99 ms | max ms | note |');
  console.log('|---|---|---|---|---|---|');
  for (const line of rows) console.log(line);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
