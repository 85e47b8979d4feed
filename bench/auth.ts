/**
 * npm run bench:auth — sign-in and authentication: POST /v1/auth/verify (each request
 * consumes its own link) and an authenticated GET /v1/me, req/s and p50/p99 under load, and the
 * unloaded p50 of /v1/me against /healthz: what authentication adds to a request. On PGlite (the
 * embedded default) and on PostgreSQL. Environment: BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_LINKS.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { landscreen } from './lib/cli.js';
import { latency } from './lib/measure.js';
import { freePort, startLandscreen, stop, waitUntilReady } from './lib/processes.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const links = Number(process.env.BENCH_LINKS ?? 20_000);
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const rows: string[] = [];

async function measureMe(engine: string, base: string, session: string) {
  const headers = { authorization: `Bearer ${session}` };
  const meUrl = `${base}/v1/me`;
  await autocannon({ url: meUrl, headers, connections, duration: 2 });
  const result = await autocannon({ url: meUrl, headers, connections, duration: seconds });
  const healthz = await latency(`${base}/healthz`);
  const me = await latency(meUrl, { headers });
  rows.push(
    `| ${engine} | GET /v1/me (session) | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${me.p50Us} | ${me.p99Us} | ${((me.p50Us - healthz.p50Us) / 1000).toFixed(3)} | ${result.non2xx + result.errors} |`,
  );
}

async function pglite() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-bench-auth-'));
  const port = await freePort();
  const env = { DATA_DIR: dataDir, PORT: String(port) };
  const child = startLandscreen(['serve'], env);
  try {
    await waitUntilReady(`http://127.0.0.1:${port}/readyz`);
    await landscreen(['tenant', 'create', '--slug', 'bench', '--name', 'Bench'], env);
    await landscreen(['member', 'add', '--tenant', 'bench', '--email', 'bench@bench.test', '--role', 'analyst'], env);
    const base = `http://127.0.0.1:${port}`;
    await fetch(`${base}/v1/auth/request-link`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@bench.test' }) });
    let token: string | undefined;
    for (let attempt = 0; attempt < 50 && !token; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      try {
        token = /token=([\w-]+)/.exec(readFileSync(path.join(dataDir, 'mailbox.jsonl'), 'utf8'))?.[1];
      } catch {
        // not written yet
      }
    }
    const verified: any = await (await fetch(`${base}/v1/auth/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) })).json();
    await measureMe('PGlite', base, verified.session.token);
  } finally {
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function postgres() {
  const database = 'landscreen_bench_auth';
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.query(`create database ${database}`);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const port = await freePort();
  const env = { DATABASE_URL: url.toString(), PORT: String(port), AUTH_VERIFY_LIMIT_PER_ADDRESS: String(links * 10) };
  const child = startLandscreen(['serve'], env);
  const db = new pg.Client({ connectionString: url.toString() });
  try {
    await waitUntilReady(`http://127.0.0.1:${port}/readyz`);
    await landscreen(['tenant', 'create', '--slug', 'bench', '--name', 'Bench'], env);
    await landscreen(['member', 'add', '--tenant', 'bench', '--email', 'bench@bench.test', '--role', 'analyst'], env);
    await db.connect();
    // Links are made directly (as the mailer would) so that each verify consumes its own.
    const tokens = Array.from({ length: links }, () => randomBytes(32).toString('base64url'));
    const digests = tokens.map((token) => createHash('sha256').update(token).digest());
    await db.query(
      `insert into auth.magic_links (token_digest, identity_id, tenant_id, created_at, expires_at)
       select d, (select id from auth.identities where email = 'bench@bench.test'), (select id from auth.tenants where slug = 'bench'), now(), now() + interval '1 hour'
       from unnest($1::bytea[]) as d`,
      [digests],
    );
    const base = `http://127.0.0.1:${port}`;
    let next = 0;
    const result = await autocannon({
      url: `${base}/v1/auth/verify`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      connections,
      amount: links - 1,
      requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify({ token: tokens[next++] }) }) }],
    });
    rows.push(
      `| PostgreSQL | POST /v1/auth/verify | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | | | | ${result.non2xx + result.errors} |`,
    );
    const verified: any = await (await fetch(`${base}/v1/auth/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: tokens[links - 1] }) })).json();
    await measureMe('PostgreSQL', base, verified.session.token);
  } finally {
    await stop(child);
    await db.end().catch(() => {});
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  }
}

await pglite();
await postgres();
console.log(`\nnpm run bench:auth — ${new Date().toISOString()} — ${os.cpus().length} cores, Node ${process.version}, ${connections} connections\n`);
console.log('| engine | endpoint | req/s | p50 ms | p99 ms | unloaded p50 µs | unloaded p99 µs | auth adds at p50 (ms) | non-2xx |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
