/**
 * npm run bench:diligence — issue 6 on real PostgreSQL and NATS JetStream:
 *  - events per second through the outbox relay (a backlog drained by one and by two relays), and
 *    the delay of one event written while the relay idles;
 *  - claims per second over the REST API with concurrent workers, and the double claims seen.
 * Environment: BENCH_EVENTS (default 100000), BENCH_CLAIMS (default 100000), BENCH_CLAIMERS (8),
 * BENCH_NATS_URL (default: a private nats-server), TEST_DATABASE_URL, BENCH_SKIP_CLAIMS=1.
 */
import os from 'node:os';
import pg from 'pg';
import { MIGRATION_PLAN, migrateModules } from '@landscreen/cli';
import { openDatabase } from '@landscreen/db';
import { benchNats, drainBacklog, idleLatency } from './diligence-relay.js';

const events = Number(process.env.BENCH_EVENTS ?? 100_000);
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function freshDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

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

async function main(): Promise<void> {
  const nats = await benchNats();
  const out: string[] = [
    `npm run bench:diligence — ${new Date().toISOString()} — ${os.cpus().length} cores, Node ${process.version}, PostgreSQL and NATS JetStream on this machine`,
    '',
  ];
  try {
    out.push('Outbox relay (backlog drained: published to DILIGENCE and marked):', '', ...(await relayBench(nats.url)));
  } finally {
    await nats.close();
  }
  console.log(out.join('\n'));
}

await main();
