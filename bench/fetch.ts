/**
 * npm run bench:fetch — billed point data, through the gateway on PostgreSQL:
 *   1. POST /v1/fetch/batch of 1,000 locations x 50 fields over the demo layers (target p50 <=
 *      250 ms, i.e. >= 200,000 field-values/s), beside a peer: a plain node:http server answering
 *      the same bytes (what moving the answer alone costs);
 *   2. what billing adds to a 1-location fetch (target p50 <= 2 ms): the billed-request steps
 *      (plan, rpm window, balance, the charge's transaction) timed on their own against the same
 *      database, beside a peer: a plain one-row SQL insert; and, for context, a 1-location billed
 *      fetch through the gateway beside the same request as a dry run;
 *   3. a 100,000-location x 20-field run end to end on PostgreSQL and NATS with two runs-worker
 *      processes (target <= 60 s), beside the same points as sequential fetch/batch calls
 *      (bench/runs.ts; BENCH_RUN_LOCATIONS).
 * Environment: BENCH_BATCHES (default 30), BENCH_SINGLES (default 2000), TEST_DATABASE_URL.
 */
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { findTenant, authDb } from '@landscreen/auth-service';
import { billedRequest, importLayer, quoteCredits, setPlan, catalogDb } from '@landscreen/catalog-service';
import { openDatabase } from '@landscreen/db';
import { DEMO_CENTER, writeDemoLayers } from '@landscreen/demo-market';
import { FIELDS } from '@landscreen/field-catalog';
import { systemClock } from '@landscreen/rpc';
import { freshDatabase } from './lib/database.js';
import { runsBench } from './runs.js';
import { percentile } from './lib/measure.js';
import { freePort, startLandscreen, stop, waitUntilReady } from './lib/processes.js';

const BATCHES = Number(process.env.BENCH_BATCHES ?? 30);
const SINGLES = Number(process.env.BENCH_SINGLES ?? 2000);
/** Tenants the requests rotate over: each plan allows `rpm` billed requests a minute (market: 1,000). */
const TENANTS = 40;
const rows: string[] = [];

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
const random = prng(13);
const demoPoint = (i: number) => ({ lat: DEMO_CENTER.lat + (random() - 0.5) * 0.4, lon: DEMO_CENTER.lon + (random() - 0.5) * 0.4, id: `p${i}` });

const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 0.5);
const p99 = (values: number[]) => percentile([...values].sort((a, b) => a - b), 0.99);

async function post(base: string, route: string, headers: Record<string, string>, body: string): Promise<{ ms: number; bytes: Buffer; status: number }> {
  const started = performance.now();
  const response = await fetch(`${base}${route}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { ms: performance.now() - started, bytes, status: response.status };
}

/** A plain HTTP server answering `bytes` to every request: the peer of the gateway's answer. */
async function plainServer(bytes: Buffer): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length }).end(bytes));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function main() {
  const url = await freshDatabase('landscreen_bench_fetch');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-bench-fetch-'));
  const child = startLandscreen(['serve'], { DATABASE_URL: url, AUTH_DEV: '1', PORT: String(port), DATA_DIR: dir });
  const database = await openDatabase({ databaseUrl: url, maxConnections: 4 });
  try {
    await waitUntilReady(`${base}/readyz`, 120_000);
    console.error('writing and importing the demo layers ...');
    for (const file of await writeDemoLayers(path.join(dir, 'layers'), { parcels: 2000 })) {
      await importLayer(catalogDb(database.db), { source: file.source, file: file.path });
    }
    const tenants: Record<string, string>[] = [];
    const tenantIds: string[] = [];
    for (let i = 0; i < TENANTS; i++) {
      const headers = { authorization: 'Bearer dev:bench@landscreen.local', 'x-tenant': `bench-${i}` };
      await fetch(`${base}/v1/me`, { headers });
      const tenant = (await findTenant(authDb(database.db), `bench-${i}`))!;
      await setPlan(catalogDb(database.db), tenant.id, 'market', new Date());
      tenants.push(headers);
      tenantIds.push(tenant.id);
    }
    let turn = 0;
    const nextTenant = () => tenants[turn++ % TENANTS];

    await batchSection(base, nextTenant);
    await billingSection(base, nextTenant, database.db, tenantIds);
    await runsSection(base, nextTenant);
  } finally {
    await database.close();
    await stop(child);
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(['| measure | p50 ms | p99 ms | peer | peer p50 ms | note |', '|---|---|---|---|---|---|', ...rows].join('\n'));
}

/** 1. 1,000 locations x 50 fields, values from the demo layers (no parcel group: no market loaded). */
async function batchSection(base: string, nextTenant: () => Record<string, string>) {
  const fields = FIELDS.filter((field) => field.billing.metered_group === null).slice(0, 50).map((field) => field.name);
  const body = JSON.stringify({ locations: Array.from({ length: 1000 }, (_, i) => demoPoint(i)), fields });
  let last: Buffer | undefined;
  const times: number[] = [];
  // The first request loads every layer version into the engine; under load it may time out once.
  for (let attempt = 0; attempt < 5; attempt++) {
    if ((await post(base, '/v1/fetch/batch', nextTenant(), body)).status === 200) break;
  }
  for (let i = 0; i < BATCHES + 3; i++) {
    const answer = await post(base, '/v1/fetch/batch', nextTenant(), body);
    if (answer.status !== 200) throw new Error(`fetch/batch answered ${answer.status}: ${answer.bytes.toString().slice(0, 300)}`);
    if (i >= 3) times.push(answer.ms);
    last = answer.bytes;
  }
  const parsed = JSON.parse(last!.toString());
  const nonNull = parsed.results.reduce((sum: number, result: { values: Record<string, unknown> }) => sum + Object.values(result.values).filter((value) => value !== null).length, 0);
  const peer = await plainServer(last!);
  const peerTimes: number[] = [];
  try {
    for (let i = 0; i < BATCHES + 3; i++) {
      const answer = await post(peer.url, '/', {}, body);
      if (i >= 3) peerTimes.push(answer.ms);
    }
  } finally {
    await peer.close();
  }
  const p50 = median(times);
  rows.push(
    `| fetch/batch 1,000 x 50 (${(last!.length / 1e6).toFixed(1)} MB, ${nonNull} of 50,000 values non-null) | ${p50.toFixed(1)} | ${p99(times).toFixed(1)} | plain node:http, same request and answer bytes | ${median(peerTimes).toFixed(1)} | ${Math.round(50_000 / (p50 / 1000)).toLocaleString('en-US')} field-values/s |`,
  );
}

/** 2. What billing adds to a 1-location fetch. */
async function billingSection(base: string, nextTenant: () => Record<string, string>, db: any, tenantIds: string[]) {
  // The billed-request steps alone (plan, rpm slot, balance pre-check, transaction: charge + ledger row).
  const context = { db, clock: systemClock };
  const billing: number[] = [];
  for (let i = 0; i < SINGLES + 200; i++) {
    const started = performance.now();
    await billedRequest(context, {
      tenantId: tenantIds[i % tenantIds.length],
      operation: 'fetch',
      price: (plan) => ({ credits: quoteCredits(plan, ['elevation'], 1).total, locations: 1, fields: 1 }),
      work: async (): Promise<Uint8Array> => new Uint8Array(0),
      codec: { encode: (bytes: Uint8Array) => bytes, decode: (bytes: Uint8Array) => bytes },
    });
    if (i >= 200) billing.push(performance.now() - started);
  }
  // A logged table, as the ledger is: its commit waits for the WAL flush as a charge's does.
  await sql`create table public.bench_peer (id bigint generated always as identity, tenant_id uuid, credits bigint, created_at timestamptz)`.execute(db);
  const inserts: number[] = [];
  for (let i = 0; i < SINGLES + 200; i++) {
    const started = performance.now();
    await sql`insert into bench_peer (tenant_id, credits, created_at) values (${tenantIds[0]}, 1, now())`.execute(db);
    if (i >= 200) inserts.push(performance.now() - started);
  }
  rows.push(
    `| billing steps of one request, in process (plan + rpm + balance in one statement; the charge's transaction) | ${median(billing).toFixed(2)} | ${p99(billing).toFixed(2)} | one-row SQL insert into a logged table, same pool | ${median(inserts).toFixed(2)} | target p50 <= 2 ms |`,
  );

  // Through the gateway: a billed 1-location fetch beside the same request as a dry run.
  const billed = JSON.stringify({ locations: [demoPoint(0)], fields: ['elevation'] });
  const dry = JSON.stringify({ locations: [demoPoint(0)], fields: ['elevation'], dry_run: true });
  const billedTimes: number[] = [];
  const dryTimes: number[] = [];
  for (let i = 0; i < SINGLES / 2 + 100; i++) {
    const a = await post(base, '/v1/fetch/batch', nextTenant(), billed);
    const b = await post(base, '/v1/fetch/batch', nextTenant(), dry);
    if (a.status !== 200 || b.status !== 200) throw new Error(`single fetch answered ${a.status}/${b.status}: ${a.bytes.toString().slice(0, 200)}`);
    if (i >= 100) {
      billedTimes.push(a.ms);
      dryTimes.push(b.ms);
    }
  }
  rows.push(
    `| fetch/batch 1 x 1, billed, through the gateway | ${median(billedTimes).toFixed(2)} | ${p99(billedTimes).toFixed(2)} | the same request as a dry run (rpm, balance; no evaluation, no charge) | ${median(dryTimes).toFixed(2)} | |`,
  );
}

/**
 * 3. Runs (D35): a 100,000-location x 20-field run end to end on PostgreSQL and NATS —
 * submit, two runs-worker processes, results downloaded (target <= 60 s) — beside its peer, the
 * same points as sequential fetch/batch calls. bench/runs.ts starts its own server (NATS, no
 * embedded runs worker), database and worker processes.
 */
async function runsSection(_base: string, _nextTenant: () => Record<string, string>) {
  rows.push(...(await runsBench()));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
