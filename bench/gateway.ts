/**
 * npm run bench:gateway — the gateway alone (GET /healthz) and the gateway → service Connect hop
 * (GET /v1/meta/plans, answered by the catalog service), with every service in-process (embedded
 * default) and over the network (distributed mode: one process per service, real PostgreSQL and
 * NATS). Prints req/s with p50/p99 under load, and unloaded p50/p99 whose difference is the hop.
 * Environment: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 64), TEST_DATABASE_URL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort, startLandscreen, stop, waitUntilReady } from './lib/processes.js';
import { latency, throughput, type Latency, type Throughput } from './lib/measure.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

interface Row {
  mode: string;
  endpoint: string;
  load: Throughput;
  unloaded: Latency;
}

async function measure(mode: string, base: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const endpoint of ['/healthz', '/v1/meta/plans']) {
    const url = `${base}${endpoint}`;
    await throughput(url, { connections, seconds: 2 }); // warm up the JIT and connections
    const load = await throughput(url, { connections, seconds });
    const unloaded = await latency(url);
    rows.push({ mode, endpoint, load, unloaded });
    console.error(`${mode} ${endpoint}: ${load.requestsPerSecond} req/s, p50 ${load.p50Ms} ms, p99 ${load.p99Ms} ms; unloaded p50 ${unloaded.p50Us} µs`);
  }
  return rows;
}

async function embedded(): Promise<Row[]> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-bench-'));
  const port = await freePort();
  const child = startLandscreen(['serve'], { DATA_DIR: dataDir, PORT: String(port) });
  try {
    await waitUntilReady(`http://127.0.0.1:${port}/readyz`);
    return await measure('in-process', `http://127.0.0.1:${port}`);
  } finally {
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function distributed(): Promise<Row[]> {
  const database = 'landscreen_bench_gateway';
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.query(`create database ${database}`);
  const databaseUrl = new URL(adminUrl);
  databaseUrl.pathname = `/${database}`;
  const port = await freePort();
  const env: Record<string, string> = { DATABASE_URL: databaseUrl.toString(), NATS_URL: natsUrl, PORT: String(port) };
  for (const service of ['AUTH', 'DISCOVERY', 'PIPELINE', 'DILIGENCE', 'CATALOG']) env[`${service}_PORT`] = String(await freePort());
  const child = startLandscreen(['serve', '--distributed'], env);
  try {
    await waitUntilReady(`http://127.0.0.1:${port}/readyz`);
    return await measure('network', `http://127.0.0.1:${port}`);
  } finally {
    await stop(child);
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  }
}

const rows = [...(await embedded()), ...(await distributed())];
const hop = (mode: string) => {
  const [gateway, service] = [rows.find((row) => row.mode === mode && row.endpoint === '/healthz')!, rows.find((row) => row.mode === mode && row.endpoint !== '/healthz')!];
  return ((service.unloaded.p50Us - gateway.unloaded.p50Us) / 1000).toFixed(3);
};

console.log(`\nnpm run bench:gateway — ${new Date().toISOString()} — ${os.cpus().length} cores, Node ${process.version}, ${connections} connections × ${seconds} s\n`);
console.log('| mode | endpoint | req/s | p50 ms | p99 ms | unloaded p50 µs | unloaded p99 µs | errors |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|');
for (const row of rows) {
  console.log(
    `| ${row.mode} | GET ${row.endpoint} | ${row.load.requestsPerSecond} | ${row.load.p50Ms} | ${row.load.p99Ms} | ${row.unloaded.p50Us} | ${row.unloaded.p99Us} | ${row.load.errors + row.load.non2xx} |`,
  );
}
console.log(`\nConnect hop at p50 (unloaded /v1/meta/plans − /healthz): in-process ${hop('in-process')} ms, network ${hop('network')} ms`);
