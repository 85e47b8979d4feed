/**
 * The runs part of `npm run bench:fetch` (D35), also runnable alone (`tsx bench/runs.ts`):
 * a 100,000-location x 20-field run end to end on PostgreSQL and NATS JetStream — POST /v1/runs,
 * two `landscreen serve --runs-worker` processes, the NDJSON results downloaded — target <= 60 s,
 * beside a peer measured in the same run: the same points and fields as 100 sequential
 * POST /v1/fetch/batch of 1,000 (the synchronous path). The server runs with its embedded runs
 * worker off, so the two worker processes do all the work. Its own database and a private
 * nats-server. Environment: BENCH_RUN_LOCATIONS (default 100000), TEST_DATABASE_URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { findTenant, authDb } from '@landscreen/auth-service';
import { importLayer, setPlan, catalogDb } from '@landscreen/catalog-service';
import { openDatabase } from '@landscreen/db';
import { DEMO_CENTER, writeDemoLayers } from '@landscreen/demo-market';
import { FIELDS } from '@landscreen/field-catalog';
import { NatsServerProcess } from '../packages/events/src/test-nats-server.js';
import { freshDatabase } from './lib/database.js';
import { BIN, NODE_FLAGS, freePort, startLandscreen, stop, waitUntilReady } from './lib/processes.js';

const LOCATIONS = Number(process.env.BENCH_RUN_LOCATIONS ?? 100_000);
const FIELD_COUNT = 20;

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

/** `landscreen serve --runs-worker`; resolves once it consumes. */
function startRunsWorker(env: Record<string, string>): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(process.execPath, [...NODE_FLAGS, BIN, 'serve', '--runs-worker'], { env: { ...process.env, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk) => {
      if (seen.includes('runs worker is up')) return;
      seen += chunk;
      if (seen.includes('runs worker is up')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`a runs worker exited with ${code}`)));
  });
  return { child, ready };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Runs the bench and answers its table rows (the same columns as bench/fetch.ts). */
export async function runsBench(): Promise<string[]> {
  const url = await freshDatabase('landscreen_bench_runs');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-bench-runs-'));
  const nats = new NatsServerProcess(await freePort(), path.join(dir, 'nats'));
  await nats.start();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { DATABASE_URL: url, NATS_URL: nats.url, AUTH_DEV: '1', DATA_DIR: dir, RUNS_WORKER_EMBEDDED: '0', WORKER_EMBEDDED: '0' };
  const server = startLandscreen(['serve'], { ...env, PORT: String(port) });
  const workers: ChildProcess[] = [];
  const database = await openDatabase({ databaseUrl: url, maxConnections: 2 });
  try {
    await waitUntilReady(`${base}/readyz`, 120_000);
    console.error('runs: writing and importing the demo layers ...');
    for (const file of await writeDemoLayers(path.join(dir, 'layers'), { parcels: 2000 })) {
      await importLayer(catalogDb(database.db), { source: file.source, file: file.path });
    }
    const headers = { authorization: 'Bearer dev:bench@landscreen.local', 'x-tenant': 'bench-runs', 'content-type': 'application/json' };
    await fetch(`${base}/v1/me`, { headers });
    await setPlan(catalogDb(database.db), (await findTenant(authDb(database.db), 'bench-runs'))!.id, 'market', new Date());

    for (let i = 0; i < 2; i++) {
      const worker = startRunsWorker(env);
      workers.push(worker.child);
      await worker.ready;
    }
    const random = prng(29);
    const locations = Array.from({ length: LOCATIONS }, (_, i) => ({
      lat: DEMO_CENTER.lat + (random() - 0.5) * 0.4,
      lon: DEMO_CENTER.lon + (random() - 0.5) * 0.4,
      id: `p${i}`,
    }));
    const fields = FIELDS.filter((field) => field.billing.metered_group === null).slice(0, FIELD_COUNT).map((field) => field.name);

    console.error(`runs: a ${LOCATIONS.toLocaleString('en-US')} x ${FIELD_COUNT} run ...`);
    const started = performance.now();
    const submitted = await fetch(`${base}/v1/runs`, { method: 'POST', headers, body: JSON.stringify({ locations, fields }) });
    if (submitted.status !== 202) throw new Error(`POST /v1/runs answered ${submitted.status}: ${(await submitted.text()).slice(0, 300)}`);
    const { run_id: runId } = (await submitted.json()) as { run_id: string };
    const accepted = performance.now();
    for (;;) {
      const run = (await (await fetch(`${base}/v1/runs/${runId}`, { headers })).json()) as { status: string; progress: { done: number } };
      if (run.status === 'succeeded') break;
      if (run.status !== 'queued' && run.status !== 'running') throw new Error(`the run ended ${run.status}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const processed = performance.now();
    const download = await fetch(`${base}/v1/runs/${runId}/results?format=ndjson`, { headers });
    let bytes = 0;
    let lines = 0;
    for await (const chunk of download.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) lines++;
    }
    const finished = performance.now();
    if (lines !== LOCATIONS) throw new Error(`the results held ${lines} lines, not ${LOCATIONS}`);

    console.error('runs: the peer, the same points as sequential fetch/batch calls ...');
    const peerStarted = performance.now();
    for (let start = 0; start < LOCATIONS; start += 1000) {
      const answer = await fetch(`${base}/v1/fetch/batch`, { method: 'POST', headers, body: JSON.stringify({ locations: locations.slice(start, start + 1000), fields }) });
      if (answer.status !== 200) throw new Error(`fetch/batch answered ${answer.status}`);
      await answer.arrayBuffer();
    }
    const peerMs = performance.now() - peerStarted;
    const total = finished - started;
    return [
      `| run ${LOCATIONS.toLocaleString('en-US')} x ${FIELD_COUNT} end to end, 2 runs-worker processes, NATS (submit ${seconds(accepted - started)}, processed ${seconds(processed - accepted)}, download ${seconds(finished - processed)}, ${(bytes / 1e6).toFixed(0)} MB NDJSON) | ${total.toFixed(0)} | | ${LOCATIONS / 1000} sequential fetch/batch of 1,000 x ${FIELD_COUNT}, same points | ${peerMs.toFixed(0)} | target <= 60 s; ${Math.round((LOCATIONS * FIELD_COUNT) / (total / 1000)).toLocaleString('en-US')} field-values/s |`,
    ];
  } finally {
    await database.close();
    for (const worker of workers) await stop(worker);
    await stop(server);
    await nats.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  runsBench()
    .then((rows) => console.log(['| measure | ms | | peer | peer ms | note |', '|---|---|---|---|---|---|', ...rows].join('\n')))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
