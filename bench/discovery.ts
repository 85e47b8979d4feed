/**
 * npm run bench:discovery — ranking a 1,000,000-parcel market through the REST gateway.
 * Builds (or reuses) the demo market on real PostgreSQL, starts the service on it, and drives a buy
 * box of 5 must and 10 preferred rules: the first page (cached ranking; uncached, a fresh spec each
 * time; uncached with ≈75 % eligible), 20 cursor pages, and count_only. Prints p50/p99 per
 * kind, the import time and the service's peak RSS. The service starts twice: first with an empty
 * local index cache (the index is read from PostgreSQL), then restarted on the cache that start
 * wrote; for each, the time from spawn to /readyz 200 and the first query after that, beside a
 * plain `select count(*)` of the vintage's parcels as the peer; and the bench spec's ranking as one
 * SQL statement on a typed table of the facts it reads (bench/lib/sql-ranking-peer.ts). Environment: BENCH_PARCELS (default
 * 1000000), BENCH_DATABASE (default landscreen_bench_discovery_<N>), BENCH_MARKET (default bench-tx), BENCH_REBUILD=1 to reload,
 * TEST_DATABASE_URL.
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { BIN, NODE_FLAGS, freePort, startLandscreen, stop } from './lib/processes.js';
import { percentile } from './lib/measure.js';
import { discoveryBenchDraft } from './lib/discovery-spec.js';
import { sqlRankingPeer } from './lib/sql-ranking-peer.js';

const parcels = Number(process.env.BENCH_PARCELS ?? 1_000_000);
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const database = process.env.BENCH_DATABASE ?? `landscreen_bench_discovery_${parcels}`;
const market = process.env.BENCH_MARKET ?? 'bench-tx';
const run = promisify(execFile);
const headers = { authorization: 'Bearer dev:bench@landscreen.local', 'x-tenant': 'demo', 'content-type': 'application/json' };

const url = new URL(adminUrl);
url.pathname = `/${database}`;
const cacheDir = path.join(os.tmpdir(), `${database}-cache`);
const env = { DATABASE_URL: url.toString(), AUTH_DEV: '1', LOG_LEVEL: 'warn', DISCOVERY_CACHE_DIR: cacheDir };

async function ensureMarket(): Promise<number | undefined> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = (await admin.query('select 1 from pg_database where datname = $1', [database])).rowCount! > 0;
    if (exists && process.env.BENCH_REBUILD !== '1') {
      const db = new pg.Client({ connectionString: url.toString() });
      await db.connect();
      const loaded = await db
        .query(`select v.parcel_count from discovery.markets m join discovery.vintages v on v.id = m.current_vintage_id where m.slug = $1`, [market])
        .catch(() => ({ rows: [] as { parcel_count: number }[] }));
      await db.end();
      if (loaded.rows[0]?.parcel_count === parcels) return undefined;
    }
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.query(`create database ${database}`);
  } finally {
    await admin.end();
  }
  const started = Date.now();
  await run(process.execPath, [...NODE_FLAGS, BIN, 'demo', '--parcels', String(parcels), '--market', market], { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 });
  return (Date.now() - started) / 1000;
}

/** p50/p99 of unsorted timings. */
const quantileOf = (values: number[], quantile: number) => percentile([...values].sort((a, b) => a - b), quantile);

async function timed(base: string, path: string, body: unknown): Promise<{ ms: number; body: any }> {
  const started = performance.now();
  const response = await fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const parsed = await response.json();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(parsed).slice(0, 500)}`);
  return { ms, body: parsed };
}

const SPEC = (salt = 0) => discoveryBenchDraft(market, salt);

const importSeconds = await ensureMarket();
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const rows: string[] = [];
let sqlPeerLine = '';

/** Polls `probe` every 20 ms until it answers 200 (the shared helper's 200 ms would blur the times). */
async function answers(probe: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await fetch(`${base}${probe}`).then((response) => response.status, () => 0);
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${base}${probe} did not answer 200 within ${timeoutMs} ms`);
}

/** Starts the service; times spawn → /healthz 200 (listening), → /readyz 200, then the first query after that. */
async function startTimed(): Promise<{ child: ReturnType<typeof startLandscreen>; liveMs: number; readyMs: number; firstQueryMs: number; firstNewSpecMs: number }> {
  const started = performance.now();
  const child = startLandscreen(['serve'], { ...env, PORT: String(port) });
  await answers('/healthz', 120_000);
  const liveMs = performance.now() - started;
  await answers('/readyz', 120_000);
  const readyMs = performance.now() - started;
  await fetch(`${base}/v1/buyboxes`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench', spec: SPEC() }) });
  const firstQueryMs = (await timed(base, '/v2/discovery/query', { buy_box: 'bench', limit: 50 })).ms;
  // A spec no start has ranked (the saved boxes are ranked while warming): ranks the 1M parcels.
  const firstNewSpecMs = (await timed(base, '/v2/discovery/query', { buy_box: 'bench', draft: SPEC(Math.floor(Math.random() * 1e6)), limit: 50 })).ms;
  return { child, liveMs, readyMs, firstQueryMs, firstNewSpecMs };
}

/** The peer of a start: PostgreSQL counting the current vintage's parcels (best of 3). */
async function countParcelsMs(): Promise<number> {
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  try {
    const times: number[] = [];
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      await db.query('select count(*) from discovery.parcels p join discovery.markets m on m.current_vintage_id = p.vintage_id where m.slug = $1', [market]);
      times.push(performance.now() - started);
    }
    return Math.min(...times);
  } finally {
    await db.end();
  }
}

rmSync(cacheDir, { recursive: true, force: true });
const cold = await startTimed();
// Stopping waits for the local cache file being written.
await stop(cold.child);
const countMs = await countParcelsMs();
const { child, ...restart } = await startTimed();
try {
  const kinds: [string, () => Promise<number>, number][] = [
    ['first page, ranking cached (same buy box)', async () => (await timed(base, '/v2/discovery/query', { buy_box: 'bench', limit: 50 })).ms, 30],
    // A spec never ranked before (a fresh query_hash) ranks every parcel before its first page. The
    // salt moves the acres floor from 10 to 1010, so most such specs leave a few thousand eligible;
    // the second kind keeps the floor near 10 (≈75 % of the parcels eligible), the most a spec here leaves.
    [`first page, uncached: a new spec each time (ranks ${parcels.toLocaleString('en-US')})`, async () => {
      const salt = Math.floor(Math.random() * 1e6);
      return (await timed(base, '/v2/discovery/query', { buy_box: 'bench', draft: SPEC(salt), limit: 50 })).ms;
    }, 40],
    ['first page, uncached, ≈75 % eligible (new spec each time)', async () => {
      const salt = Math.random();
      return (await timed(base, '/v2/discovery/query', { buy_box: 'bench', draft: SPEC(salt), limit: 50 })).ms;
    }, 20],
    ['count_only (cached)', async () => (await timed(base, '/v1/leads/find?count_only=true', { buy_box: 'bench' })).ms, 30],
  ];
  // Columns no query has read since the restart (the bench spec's were read when its saved box was
  // ranked while warming): an index opened from the local file reads them first, once.
  const newColumns = SPEC(0.5);
  newColumns.preferred.push(
    { field: 'nearest_airport_distance_m', op: '>=', value: 5000, weight: 1 },
    { field: 'nearest_dam_distance_m', op: '>=', value: 2000, weight: 1 },
    { field: 'nearest_major_road_distance_m', op: '<=', value: 3000, weight: 1 },
  );
  const newColumnsMs = (await timed(base, '/v2/discovery/query', { buy_box: 'bench', draft: newColumns, limit: 50 })).ms;
  rows.push(`| first page, a spec adding 3 columns no query read since the restart (once) | 1 | ${newColumnsMs.toFixed(1)} | | |`);
  const pageTimes: number[] = [];
  for (let round = 0; round < 3; round++) {
    let cursor = (await timed(base, '/v2/discovery/query', { buy_box: 'bench', limit: 50 })).body.next_cursor;
    for (let page = 0; page < 20 && cursor; page++) {
      const next = await timed(base, '/v2/discovery/query', { buy_box: 'bench', limit: 50, cursor });
      pageTimes.push(next.ms);
      cursor = next.body.next_cursor;
    }
  }
  for (const [label, once, count] of kinds) {
    const times: number[] = [];
    for (let index = 0; index < count; index++) times.push(await once());
    rows.push(`| ${label} | ${count} | ${quantileOf(times, 0.5).toFixed(1)} | ${quantileOf(times, 0.99).toFixed(1)} | |`);
  }
  rows.push(`| 20 cursor pages of 50 (×3) | ${pageTimes.length} | ${quantileOf(pageTimes, 0.5).toFixed(1)} | ${quantileOf(pageTimes, 0.99).toFixed(1)} | |`);
  const counted = (await timed(base, '/v1/leads/find?count_only=true', { buy_box: 'bench' })).body as { count: number };
  const uncachedP50 = Number(rows.find((row) => row.startsWith('| first page, uncached: a new spec'))!.split('|')[3]);
  // The saved box's spec ranked by PostgreSQL alone, on typed columns of the same facts.
  const peer = await sqlRankingPeer(url.toString(), market, SPEC(0));
  sqlPeerLine = `peer: the bench spec's first page as one SQL statement on a typed table of its ${peer.eligible === counted.count ? '' : 'not quite the same '}facts (${peer.eligible.toLocaleString('en-US')} eligible; discovery counts ${counted.count.toLocaleString('en-US')}): median ${peer.medianMs.toFixed(0)} ms, best ${peer.bestMs.toFixed(0)} ms of 5 (the copy into it ${(peer.copyMs / 1000).toFixed(1)} s, not timed); against discovery's uncached first page p50 (${uncachedP50.toFixed(1)} ms, through the gateway): ×${(peer.medianMs / uncachedP50).toFixed(1)}`;
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const peakKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const nowKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  console.log(`\nnpm run bench:discovery — ${new Date().toISOString()} — ${os.cpus().length} cores, Node ${process.version}, ${parcels.toLocaleString('en-US')} parcels on PostgreSQL\n`);
  console.log(`import (landscreen demo, generate + load): ${importSeconds === undefined ? 'reused the existing market (BENCH_REBUILD=1 to rebuild)' : `${importSeconds.toFixed(1)} s`}`);
  console.log(`service peak RSS: ${(peakKb / 1024).toFixed(0)} MiB (restoring the parcel index on a worker thread and reading the index included); RSS after the queries: ${(nowKb / 1024).toFixed(0)} MiB`);
  console.log(`peer: select count(*) of the vintage's ${parcels.toLocaleString('en-US')} parcels on PostgreSQL: ${countMs.toFixed(0)} ms`);
  console.log(`${sqlPeerLine}\n`);
  console.log('| start | spawn → /healthz 200 ms | spawn → /readyz 200 ms | first query after ready (saved box) ms | then a spec never ranked ms |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [label, start] of [['first start, empty local cache (index read from PostgreSQL)', cold], ['restart, index read from the local cache', restart]] as const) {
    console.log(`| ${label} | ${start.liveMs.toFixed(0)} | ${start.readyMs.toFixed(0)} | ${start.firstQueryMs.toFixed(0)} | ${start.firstNewSpecMs.toFixed(0)} |`);
  }
  console.log('');
  console.log('| kind | requests | p50 ms | p99 ms | |');
  console.log('|---|---:|---:|---:|---|');
  for (const row of rows) console.log(row);
} finally {
  await stop(child);
}
