/**
 * npm run bench:scale — prepare's memory as the market grows, and prepare over worker processes.
 * Builds two layered markets (the demo's parcels and its layers at full size,
 * bench/lib/layered-market.ts): BENCH_PARCELS (default 10,000,000) and half of it (BENCH_HALF=0
 * skips the half), and runs `landscreen prepare --market` on a copy of each, a process of its own
 * under GNU time: wall, CPU seconds and peak RSS, beside the same run's plain-SQL peer (PostgreSQL
 * copying the vintage, insert … select). Prepare streams the base a chunk of its stored index at a
 * time, so its peak RSS should not double with the market. On the larger market it then runs
 * `landscreen prepare --workers` with 1 and with 2 `serve --prepare-worker` processes (NATS at
 * BENCH_NATS_URL, default nats://127.0.0.1:4222; BENCH_WORKERS=2 for one count only, BENCH_IN_PROCESS=0
 * skips the prepare in one process), each under GNU time: CPU and peak RSS per process. The last
 * prepared vintage is then ranked by `npm run bench:discovery` (BENCH_RANK=0 skips it).
 *
 * BENCH_PARCELS=200000 npm run bench:scale   # a 100,000- and a 200,000-parcel market
 */

import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import pg from 'pg';
import { landscreen } from './lib/cli.js';
import { ADMIN_DATABASE_URL, throwawayName } from './lib/database.js';
import { BENCH_DB_ENV, layeredMarket } from './lib/layered-market.js';
import { BIN, NODE_FLAGS } from './lib/processes.js';

const run = promisify(execFile);
const PARCELS = Number(process.env.BENCH_PARCELS ?? 10_000_000);
const sizes = process.env.BENCH_HALF === '0' ? [PARCELS] : [Math.floor(PARCELS / 2), PARCELS];
const NATS_URL = process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';
/** BENCH_IN_PROCESS=0: only the prepares over workers. */
const IN_PROCESS = process.env.BENCH_IN_PROCESS !== '0';
/** BENCH_RANK=0: no ranking on the prepared market. */
const RANK = process.env.BENCH_RANK !== '0';
const WORKER_COUNTS = (process.env.BENCH_WORKERS ?? '1,2').split(',').map(Number).filter((n) => n > 0);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const load = () => `load ${os.loadavg()[0]!.toFixed(1)}`;

interface Prepared {
  parcels: number;
  wallMs: number;
  cpuS?: number;
  maxRssGb?: number;
  copyMs: number;
}

interface Timed {
  cpuS?: number;
  maxRssGb?: number;
}

interface OnWorkers {
  parcels: number;
  workers: number;
  wallMs: number;
  coordinator: Timed;
  perWorker: Timed[];
  copyMs: number;
}

const results: Prepared[] = [];
const spread: OnWorkers[] = [];
for (const size of sizes) {
  const market = await layeredMarket(size, {
    rebuild: process.env.BENCH_REBUILD === '1',
    log: (line) => {
      console.log(line);
      const imported = /parcels loaded in (\d+) s/.exec(line);
      // The import of the parcels (landscreen import parcels' code, in this process), before the layers.
      if (imported) console.log(`  import: ${Math.round(size / Math.max(1, Number(imported[1]))).toLocaleString('en-US')} parcels/s`);
    },
  });
  if (market.builtIn !== undefined) console.log(`market of ${size.toLocaleString('en-US')} built (parcels and layers) in ${market.builtIn.toFixed(0)} s`);
  // Each figure is printed as it comes: a long run cut short keeps what it measured.
  if (IN_PROCESS) {
    results.push(await prepareOnCopy(market.url, market.market));
    console.log(`  ${JSON.stringify(results.at(-1))}`);
  }
  if (size === PARCELS) {
    for (const [n, workers] of WORKER_COUNTS.entries()) {
      // The last prepare's vintage is ranked, through the gateway, before its copy is dropped.
      const rankIt = RANK && n === WORKER_COUNTS.length - 1;
      spread.push(await prepareOnCopy(market.url, market.market, workers, rankIt ? rankOnCopy : undefined));
      console.log(`  ${JSON.stringify(spread.at(-1))}`);
    }
  }
}

console.log(`\n| parcels | prepare wall | prepare CPU | prepare peak RSS | peer: PostgreSQL copying the vintage |\n|---:|---:|---:|---:|---:|`);
for (const r of results) {
  console.log(
    `| ${r.parcels.toLocaleString('en-US')} | ${seconds(r.wallMs)} | ${r.cpuS === undefined ? '-' : `${r.cpuS.toFixed(0)} s`} | ${r.maxRssGb === undefined ? '-' : `${r.maxRssGb.toFixed(2)} GB`} | ${seconds(r.copyMs)} |`,
  );
}
if (spread.length > 0) {
  const gb = (t: Timed) => (t.maxRssGb === undefined ? '-' : `${t.maxRssGb.toFixed(2)} GB`);
  const cpu = (t: Timed) => (t.cpuS === undefined ? '-' : `${t.cpuS.toFixed(0)} s`);
  console.log(`\n| parcels | prepare --workers | wall | CPU (coordinator; each worker) | peak RSS (coordinator; each worker) | peer: PostgreSQL copying the vintage |\n|---:|---:|---:|---:|---:|---:|`);
  for (const r of spread) {
    console.log(
      `| ${r.parcels.toLocaleString('en-US')} | ${r.workers} | ${seconds(r.wallMs)} | ${cpu(r.coordinator)}; ${r.perWorker.map(cpu).join(', ')} | ${gb(r.coordinator)}; ${r.perWorker.map(gb).join(', ')} | ${seconds(r.copyMs)} |`,
    );
  }
}
const [small, large] = results;
if (small?.maxRssGb && large?.maxRssGb) console.log(`peak RSS at twice the parcels: x${(large.maxRssGb / small.maxRssGb).toFixed(2)} (x2 would be a whole market in memory); ${load()}`);

/** On a copy of the bench database (CREATE DATABASE … TEMPLATE), so every run prepares the market as built. */
async function prepareOnCopy(url: string, slug: string): Promise<Prepared>;
async function prepareOnCopy(url: string, slug: string, workers: number, after?: (copyUrl: string, slug: string, parcels: number) => Promise<void>): Promise<OnWorkers>;
async function prepareOnCopy(url: string, slug: string, workers?: number, after?: (copyUrl: string, slug: string, parcels: number) => Promise<void>): Promise<Prepared | OnWorkers> {
  const source = new URL(url).pathname.slice(1);
  const copyName = throwawayName(`${source}_scale`);
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${copyName} with (force)`);
  await admin.query(`create database ${copyName} template ${source}`);
  const copyUrl = new URL(url);
  copyUrl.pathname = `/${copyName}`;
  const client = new pg.Client({ connectionString: copyUrl.toString() });
  await client.connect();
  try {
    // A bench database built before the index was chunked gets the migration; its vintage is one chunk.
    await landscreen(['migrate'], { DATABASE_URL: copyUrl.toString(), ...BENCH_DB_ENV });
    const { rows } = await client.query<{ id: string; parcels: number }>(
      'select v.id, v.parcel_count parcels from discovery.markets m join discovery.vintages v on v.id = m.current_vintage_id where m.slug = $1',
      [slug],
    );
    const base = rows[0]!;
    console.log(`\nlandscreen prepare --market ${slug}${workers ? ` --workers (${workers} worker processes)` : ''}: ${base.parcels.toLocaleString('en-US')} parcels; ${load()}`);
    let started = performance.now();
    await client.query('begin');
    await client.query('create temporary table bench_copy (like discovery.parcels) on commit drop');
    await client.query('insert into bench_copy select * from discovery.parcels where vintage_id = $1', [base.id]);
    await client.query('rollback');
    const copyMs = performance.now() - started;
    const timed = existsSync('/usr/bin/time');
    const env = { ...process.env, DATABASE_URL: copyUrl.toString(), LOG_LEVEL: 'warn', ...BENCH_DB_ENV };
    if (workers) {
      const onWorkers = { ...(await prepareOnWorkers(env, slug, workers)), parcels: base.parcels, copyMs };
      await after?.(copyUrl.toString(), slug, base.parcels);
      return onWorkers;
    }
    const command = [process.execPath, ...NODE_FLAGS, BIN, 'prepare', '--market', slug];
    started = performance.now();
    const { stderr } = await run(timed ? '/usr/bin/time' : command[0]!, timed ? ['-f', 'prepare-cpu %U %S %M', ...command] : command.slice(1), {
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
    const wallMs = performance.now() - started;
    const cpu = /prepare-cpu ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
    return {
      parcels: base.parcels,
      wallMs,
      copyMs,
      cpuS: cpu ? Number(cpu[1]) + Number(cpu[2]) : undefined,
      maxRssGb: cpu ? Number(cpu[3]) / 1024 / 1024 : undefined,
    };
  } finally {
    await client.end();
    await admin.query(`drop database if exists ${copyName} with (force)`);
    await admin.end();
  }
}

/**
 * `npm run bench:discovery` on the prepared copy: the ranking figures (uncached first page, ≈75 %
 * eligible, count_only, the first query after a restart), the service's peak RSS, and its peers
 * (the ranking as one SQL statement on typed columns; PostgreSQL counting the vintage).
 */
async function rankOnCopy(copyUrl: string, slug: string, parcels: number): Promise<void> {
  const database = new URL(copyUrl).pathname.slice(1);
  console.log(`\nnpm run bench:discovery on the prepared ${parcels.toLocaleString('en-US')}-parcel vintage; ${load()}`);
  // bench:discovery asks as the demo tenant, which the layered market has not entitled yet.
  const asCopy = { DATABASE_URL: copyUrl, ...BENCH_DB_ENV };
  await landscreen(['tenant', 'create', '--slug', 'demo', '--name', 'Demo Land Co'], asCopy);
  await landscreen(['entitle', '--tenant', 'demo', '--market', slug], asCopy);
  const { stdout } = await run('npm', ['run', '--silent', 'bench:discovery'], {
    env: { ...process.env, BENCH_DATABASE: database, BENCH_MARKET: slug, BENCH_PARCELS: String(parcels), TEST_DATABASE_URL: ADMIN_DATABASE_URL },
    maxBuffer: 64 * 1024 * 1024,
  });
  console.log(stdout.trim());
}

/** What GNU time printed for a process (-f 'prepare-cpu %U %S %M'). */
function timedOf(stderr: string): Timed {
  const cpu = /prepare-cpu ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
  return cpu ? { cpuS: Number(cpu[1]) + Number(cpu[2]), maxRssGb: Number(cpu[3]) / 1024 / 1024 } : {};
}

/** `serve --prepare-worker` × `count`, then `prepare --workers`, each under GNU time; the workers stopped once it is done. */
async function prepareOnWorkers(env: NodeJS.ProcessEnv, slug: string, count: number): Promise<Omit<OnWorkers, 'parcels' | 'copyMs'>> {
  const timed = (args: string[]) => ['/usr/bin/time', '-f', 'prepare-cpu %U %S %M', process.execPath, ...NODE_FLAGS, BIN, ...args];
  const workerEnv = { ...env, NATS_URL, LOG_LEVEL: 'info' };
  const workers = Array.from({ length: count }, () => {
    const [file, ...args] = timed(['serve', '--prepare-worker']);
    const child = spawn(file!, args, { env: workerEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<Timed>((resolve) => child.once('exit', () => resolve(timedOf(stderr))));
    // The worker's pid from its log (GNU time's child): SIGTERM goes to it, so time reports it.
    const pid = new Promise<number>((resolve, reject) => {
      let buffer = '';
      child.stdout!.on('data', (chunk) => {
        buffer += chunk;
        const line = buffer.split('\n').find((candidate) => candidate.includes('prepare worker is up'));
        if (line) resolve(JSON.parse(line).pid as number);
      });
      child.once('exit', () => reject(new Error(`a prepare worker exited at start: ${stderr}`)));
    });
    pid.catch(() => {});
    return { pid, exited };
  });
  const pids = await Promise.all(workers.map((worker) => worker.pid));
  const [file, ...args] = timed(['prepare', '--market', slug, '--workers']);
  const started = performance.now();
  const { stdout, stderr } = await run(file!, args, { env: { ...env, NATS_URL }, maxBuffer: 64 * 1024 * 1024 });
  const wallMs = performance.now() - started;
  console.log(stdout.trim().split('\n').at(-1));
  for (const pid of pids) process.kill(pid, 'SIGTERM');
  const perWorker = await Promise.all(workers.map((worker) => worker.exited));
  return { workers: count, wallMs, coordinator: timedOf(stderr), perWorker };
}
