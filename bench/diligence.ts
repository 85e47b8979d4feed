/**
 * npm run bench:diligence — diligence on real PostgreSQL and NATS JetStream:
 *  - events per second through the outbox relay (a backlog drained by one and by two relays), and
 *    the delay of one event written while the relay idles;
 *  - claims per second over the REST API with concurrent claimers (the embedded server on
 *    PostgreSQL and NATS, the legacy worker secret): BENCH_CLAIMS / 5 jobs offered to one claimer
 *    each, then BENCH_CLAIMS jobs each offered to two claimers at once, counting double claims in
 *    the answers and in the database, and the CPU each request cost the server, PostgreSQL and
 *    the load generator (read from /proc, Linux only), all sharing the machine's cores.
 * Environment: BENCH_EVENTS (default 100000), BENCH_CLAIMS (default 100000), BENCH_CLAIMERS (8),
 * BENCH_NATS_URL (default: a private nats-server), TEST_DATABASE_URL, BENCH_SKIP_CLAIMS=1.
 */
import os from 'node:os';
import { MIGRATION_PLAN, migrateModules } from '@landscreen/runtime';
import { openDatabase } from '@landscreen/db';
import { landscreen } from './lib/cli.js';
import { freshDatabase } from './lib/database.js';
import { freePort, startLandscreen, stop, waitUntilReady } from './lib/processes.js';
import { authorizedJobs, raceClaims } from './diligence-claims.js';
import { benchNats, drainBacklog, idleLatency } from './diligence-relay.js';

const events = Number(process.env.BENCH_EVENTS ?? 100_000);
const claims = Number(process.env.BENCH_CLAIMS ?? 100_000);
const claimers = Number(process.env.BENCH_CLAIMERS ?? 8);

async function relayBench(natsUrl: string): Promise<string[]> {
  const databaseUrl = await freshDatabase('landscreen_bench_relay');
  const database = await openDatabase({ databaseUrl, maxConnections: 10 });
  const lines: string[] = [];
  try {
    await migrateModules(database, MIGRATION_PLAN);
    lines.push('| relays | batch | events | seconds | events/s | stored in stream |', '|---:|---:|---:|---:|---:|---:|');
    for (const [relays, batchSize] of [[1, 500], [2, 500], [1, 1000]] as const) {
      const figures = await drainBacklog(database.db, natsUrl, events, relays, batchSize);
      lines.push(`| ${relays} | ${batchSize} | ${events} | ${figures.seconds.toFixed(2)} | ${figures.eventsPerSecond} | ${figures.streamMessages} |`);
    }
    const latency = await idleLatency(database.db, natsUrl, 200, 100);
    lines.push('', `one event written while the relay idles (RELAY_POLL_MS=100), write → consumer: p50 ${latency.p50Ms} ms, p99 ${latency.p99Ms} ms`);
  } finally {
    await database.close();
  }
  return lines;
}

/**
 * The embedded server on PostgreSQL and NATS (its own worker off), the jobs made and authorized in
 * bulk SQL, then `claimers` concurrent claimers over HTTP with the legacy worker secret.
 */
async function claimBench(natsUrl: string): Promise<string[]> {
  const databaseUrl = await freshDatabase('landscreen_bench_claims');
  const port = await freePort();
  const secret = 'bench-claims-worker-secret';
  const env = { DATABASE_URL: databaseUrl, NATS_URL: natsUrl, PORT: String(port), LEGACY_SHARED_SECRET: secret, WORKER_EMBEDDED: '0', AUTH_DEV: '0' };
  const server = startLandscreen(['serve'], env);
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitUntilReady(`${base}/readyz`);
    await landscreen(['tenant', 'create', '--slug', 'bench', '--name', 'Bench'], env);
    // Warm the path (JIT, pools, prepared statements) on jobs of their own before timing: after
    // 2,000 the first timed run was still 5–8 % slower than the next.
    await raceClaims(base, secret, 'bench', await authorizedJobs(databaseUrl, 'bench', 5_000), claimers, databaseUrl, 1);
    // Workers fed by the durable consumer rarely meet on a job: each job offered to one claimer.
    const alone = await raceClaims(base, secret, 'bench', await authorizedJobs(databaseUrl, 'bench', Math.max(1, Math.round(claims / 5))), claimers, databaseUrl, 1, server.pid);
    // The worst case for D23: every job offered to two claimers at the same moment.
    const raced = await raceClaims(base, secret, 'bench', await authorizedJobs(databaseUrl, 'bench', claims), claimers, databaseUrl, 2, server.pid);
    const row = (label: string, f: typeof raced) =>
      `| ${label} | ${f.claimers} | ${f.jobs} | ${f.attempts} | ${f.seconds.toFixed(1)} | ${f.claimsPerSecond} | ${f.attemptsPerSecond} | ${f.conflicts} | ${f.p50Ms} | ${f.p99Ms} | ${f.doubleClaimsSeen} / ${f.doubleClaimsInDatabase} | ${cpuCell(f.cpu)} | ${Object.keys(f.otherAnswers).length ? JSON.stringify(f.otherAnswers) : 'none'} |`;
    return [
      '| jobs offered | claimers | jobs | claim requests | seconds | claims/s | requests/s | 409 already_claimed | p50 ms | p99 ms | double claims (answers / database) | CPU ms per request: server / PostgreSQL / load generator | other answers |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
      row('once each', alone),
      row('twice each, at once', raced),
    ];
  } finally {
    await stop(server);
  }
}

const cpuCell = (cpu: { serverMs?: number; postgresMs?: number; loadGeneratorMs: number }) =>
  [cpu.serverMs, cpu.postgresMs, cpu.loadGeneratorMs].map((ms) => (ms === undefined ? 'n/a' : ms.toFixed(2))).join(' / ');

async function main(): Promise<void> {
  const nats = await benchNats();
  const out: string[] = [
    `npm run bench:diligence — ${new Date().toISOString()} — ${os.cpus().length} cores, Node ${process.version}, PostgreSQL and NATS JetStream on this machine`,
    '',
  ];
  try {
    out.push('Outbox relay (backlog drained: published to DILIGENCE and marked):', '', ...(await relayBench(nats.url)));
    if (process.env.BENCH_SKIP_CLAIMS !== '1') {
      out.push('', `Claims over REST (POST /v1/internal/diligence/jobs/{id}/claim, ${claimers} concurrent claimers, legacy worker secret):`, '', ...(await claimBench(nats.url)));
    }
  } finally {
    await nats.close();
  }
  console.log(out.join('\n'));
}

await main();
