/**
 * npm run bench:placement — discovery replicas sharing markets (D42), as processes on PostgreSQL
 * and NATS: what a market costs the replica holding it, and how long a dead replica's markets
 * take to be answered again.
 *
 * One prepared demo market of BENCH_PARCELS parcels (default 200,000; `landscreen demo`, its layers
 * and `prepare` included, so its vintage has every derived fact) and BENCH_MARKETS small ones
 * (default 11, 500 parcels each, `landscreen import parcels`), the auth service, the gateway and
 * three discovery replicas (`serve --service discovery`, each with its own index cache, lease
 * BENCH_LEASE_SECONDS, default 10). Once the markets are spread as rendezvous hashing says and each
 * was asked once (a query and a map tile: both its indexes load), each replica's RSS and the bytes
 * its memory budget counts, beside PostgreSQL's own copy of the large vintage (its partition, its
 * stored columns and shapes). Then the replica holding the large market is SIGKILLed while a
 * client keeps asking every market through the gateway: the time until the placement table shows
 * its markets held again, until the large market answers again, and what was answered meanwhile —
 * beside the lease itself, the least any lease-based takeover can take. Then a fourth replica
 * joins: the time until the markets that belong on it have moved. BENCH_KEEP=1 keeps the database.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@connectrpc/connect';
import pg from 'pg';
import { runInNewContext } from 'node:vm';
import v8 from 'node:v8';
import { openDatabase } from '@landscreen/db';
import { desiredReplica, discoveryDb, loadParcelIndex, loadVintageIndex, vintageIndexBytes } from '@landscreen/discovery-service';
import { authv1, discoveryv1 } from '@landscreen/proto';
import { callerHeaders, networkTransport } from '@landscreen/rpc';
import { landscreen } from './lib/cli.js';
import { ADMIN_DATABASE_URL } from './lib/database.js';
import { heldBuffers } from '../services/discovery/src/locate/held-buffers.js';
import { freePort, startLandscreen, stop } from './lib/processes.js';

const PARCELS = Number(process.env.BENCH_PARCELS ?? 200_000);
const SMALL = Number(process.env.BENCH_MARKETS ?? 11);
const SMALL_PARCELS = 500;
const LEASE_S = Number(process.env.BENCH_LEASE_SECONDS ?? 10);
const BIG = 'bench-big';
const database = `landscreen_bench_placement_${PARCELS}`;
const url = new URL(ADMIN_DATABASE_URL);
url.pathname = `/${database}`;
const DATABASE_URL = url.toString();
const work = path.join(os.tmpdir(), `landscreen-bench-placement-${PARCELS}`);
const HEADERS = { authorization: 'Bearer dev:bench@landscreen.local', 'x-tenant': 'demo', 'content-type': 'application/json' };
const markets = [BIG, ...Array.from({ length: SMALL }, (_, i) => `bench-small-${String(i).padStart(2, '0')}`)];
const load = () => `load ${os.loadavg()[0]!.toFixed(1)}`;
const since = (start: number) => Date.now() - start;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
await admin.connect();
const exists = (await admin.query('select 1 from pg_database where datname = $1', [database])).rowCount! > 0;
const env: Record<string, string> = { DATABASE_URL, AUTH_DEV: '1', LOG_LEVEL: 'warn', ...(process.env.NATS_URL && { NATS_URL: process.env.NATS_URL }) };
const db = new pg.Client({ connectionString: DATABASE_URL });
if (!exists || process.env.BENCH_REBUILD === '1') {
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.query(`create database ${database}`);
  const started = Date.now();
  await landscreen(['demo', '--parcels', String(PARCELS), '--market', BIG], env);
  mkdirSync(work, { recursive: true });
  for (const [k, slug] of markets.slice(1).entries()) {
    const file = path.join(work, `${slug}.geojson`);
    writeFileSync(file, JSON.stringify(smallMarket(k)));
    await landscreen(['import', 'parcels', '--market', slug, '--file', file], env);
    await landscreen(['entitle', '--tenant', 'demo', '--market', slug], env);
  }
  console.log(`markets built in ${(since(started) / 1000).toFixed(0)} s (${load()})`);
}
await db.connect();

rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const [authPort, gatewayPort, ...discoveryPorts] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort(), freePort()]);
const replicaUrls = discoveryPorts.map((port) => `http://127.0.0.1:${port}`);
const common = { ...env, AUTH_PORT: String(authPort), AUTH_URL: `http://127.0.0.1:${authPort}`, DISCOVERY_URL: replicaUrls.slice(0, 3).join(','), DISCOVERY_LEASE_SECONDS: String(LEASE_S) };
const children = new Map<string, ReturnType<typeof startLandscreen>>();
const startReplica = async (index: number) => {
  const metricsPort = await freePort();
  const child = startLandscreen(['serve', '--service', 'discovery'], {
    ...common,
    DISCOVERY_PORT: String(discoveryPorts[index]),
    DISCOVERY_CACHE_DIR: path.join(work, `cache-${index}`),
    METRICS_PORT: String(metricsPort),
  });
  children.set(replicaUrls[index]!, child);
  await until(async () => (await createClient(discoveryv1.DiscoveryService, networkTransport(replicaUrls[index]!)).health({}).catch(() => undefined))?.ready === true, 600_000);
  return { child, metrics: `http://127.0.0.1:${metricsPort}/metrics` };
};

try {
  children.set('auth', startLandscreen(['serve', '--service', 'auth'], common));
  children.set('gateway', startLandscreen(['serve', '--gateway'], { ...common, PORT: String(gatewayPort) }));
  await until(async () => (await createClient(authv1.AuthService, networkTransport(common.AUTH_URL)).health({}).catch(() => undefined))?.ready === true, 600_000);
  const replicas = [];
  for (let index = 0; index < 3; index++) replicas.push(await startReplica(index));
  const gateway = `http://127.0.0.1:${gatewayPort}`;
  await until(async () => (await fetch(`${gateway}/healthz`).catch(() => undefined))?.ok === true, 600_000);
  for (const slug of markets) {
    await fetch(`${gateway}/v1/buyboxes`, { method: 'POST', headers: HEADERS, body: JSON.stringify({ name: `bench-${slug}`, spec: spec(slug) }) });
  }

  // Spread as rendezvous hashing says over the three (each has been up a lease, moves are done).
  await until(() => placementIs(replicaUrls.slice(0, 3)), 600_000);
  // A query (ranking index) and a located point (parcel index) of each market, at whichever replica: it is sent on to the holder.
  const tenant = await db.query<{ id: string; slug: string; name: string }>(`select id, slug, name from auth.tenants where slug = 'demo'`);
  const caller = { tenantId: tenant.rows[0]!.id, tenantSlug: 'demo', tenantName: tenant.rows[0]!.name, identityId: '', email: '', role: 'analyst' as const, kind: 'dev' as const, sessionId: '' };
  const discovery = createClient(discoveryv1.DiscoveryService, networkTransport(replicaUrls[0]!));
  for (const slug of markets) {
    await ask(gateway, slug);
    await discovery.locateParcels({ market: slug, points: [{ lat: 0, lon: 0 }], omitGeometry: true }, { headers: callerHeaders(caller) });
  }
  await sleep(2_000);
  const held = await holders();
  const counts = await db.query<{ slug: string; parcels: number }>('select m.slug, v.parcel_count parcels from discovery.markets m join discovery.vintages v on v.id = m.current_vintage_id');
  const parcelsOf = new Map(counts.rows.map((row) => [row.slug, Number(row.parcels)]));
  console.log(`\nnpm run bench:placement — ${new Date().toISOString()} — ${os.cpus().length} cores, Node ${process.version}, ${PARCELS.toLocaleString('en-US')} + ${SMALL} × ${SMALL_PARCELS} parcels, lease ${LEASE_S} s, ${load()}`);
  const perMillion = (bytes: number) => `${((bytes / PARCELS) * 1e6 / 2 ** 30).toFixed(2)} GiB`;
  console.log('\n| replica | markets held | parcels held | index bytes (budget count) | RSS |\n|---|---:|---:|---:|---:|');
  const memory: { url: string; parcels: number; bytes: number; rss: number }[] = [];
  for (const [index, replica] of replicas.entries()) {
    const mine = [...held].filter(([, holder]) => holder === replicaUrls[index]).map(([slug]) => slug);
    const parcels = mine.reduce((sum, slug) => sum + parcelsOf.get(slug)!, 0);
    const bytes = await gauge(replica.metrics, 'landscreen_discovery_index_bytes');
    const rss = rssOf(replica.child.pid!);
    memory.push({ url: replicaUrls[index]!, parcels, bytes, rss });
    console.log(`| ${index + 1}${mine.includes(BIG) ? ` (holds ${BIG})` : ''} | ${mine.length} | ${parcels.toLocaleString('en-US')} | ${mib(bytes)} | ${mib(rss)} |`);
  }
  const bigHolder = memory.find((replica) => held.get(BIG) === replica.url)!;
  const others = memory.filter((replica) => replica !== bigHolder).map((replica) => replica.rss);
  const baseline = Math.min(...others);
  const copy = await postgresCopy(BIG);
  console.log(`\nper million parcels (the large market): RSS above the lightest replica ${perMillion(bigHolder.rss - baseline)}; budget count ${perMillion(bigHolder.bytes)}; peer: PostgreSQL's copy of the vintage ${perMillion(copy)} (${mib(copy)} for ${PARCELS.toLocaleString('en-US')} parcels: partition with its indexes, stored columns, shapes)`);

  // The same vintage's indexes loaded in this process as a replica loads them: the heap and array
  // buffers they keep after a full GC, beside what the budget counts for them (an RSS also keeps
  // what the collector freed but the process did not give back).
  const weighed = await weigh(BIG);
  console.log(
    `the large vintage loaded here (after GC): ranking index ${mib(weighed.rankingBytes)} (budget count ${mib(weighed.rankingCount)}), parcel index with its engine index ${mib(weighed.parcelBytes)} (budget count ${mib(weighed.parcelCount)}): ${perMillion(weighed.rankingBytes + weighed.parcelBytes)} per million parcels`,
  );

  // Takeover: SIGKILL the replica holding the large market while every market is asked in turn.
  const victim = bigHolder.url;
  const survivors = replicaUrls.slice(0, 3).filter((candidate) => candidate !== victim);
  let asking = true;
  const after = { killedAt: 0, refusals: 0, retryAfter: new Set<string>(), firstAnswer: new Map<string, number>(), errors: 0 };
  // One client per market, each asking again as soon as it has its answer: a market waiting for its
  // new holder to load it does not hold the others' questions back.
  const prober = Promise.all(
    markets.map(async (slug) => {
      while (asking) {
        const askedAt = Date.now();
        const answer = await ask(gateway, slug);
        if (after.killedAt === 0 || askedAt < after.killedAt) continue;
        if (answer.status === 200 && !after.firstAnswer.has(slug)) after.firstAnswer.set(slug, since(after.killedAt));
        if (answer.status === 503) {
          after.refusals++;
          after.retryAfter.add(answer.retryAfter ?? '-');
          await sleep(100);
        } else if (answer.status !== 200) after.errors++;
      }
    }),
  );
  await sleep(1_000);
  after.killedAt = Date.now();
  children.get(victim)!.kill('SIGKILL');
  await until(() => placementIs(survivors), 600_000);
  const ownedMs = since(after.killedAt);
  await until(async () => after.firstAnswer.size === markets.length, 600_000);
  asking = false;
  await prober;
  const bigMs = after.firstAnswer.get(BIG)!;
  console.log('\n| after SIGKILL of the replica holding the large market | ms | peer: the lease (no lease-based takeover is sooner) |\n|---|---:|---:|');
  console.log(`| its markets held again (placement table) | ${ownedMs} | ${LEASE_S * 1000} |`);
  console.log(`| the large market answers again (through the gateway; loaded from PostgreSQL by its new holder) | ${bigMs} | ${LEASE_S * 1000} |`);
  const victimMarkets = [...held].filter(([, holder]) => holder === victim).map(([slug]) => slug);
  console.log(`| the last of its ${victimMarkets.length} markets to answer again | ${Math.max(...victimMarkets.map((slug) => after.firstAnswer.get(slug)!))} | ${LEASE_S * 1000} |`);
  console.log(`| the slowest of the other markets (never held by it) | ${Math.max(0, ...markets.filter((slug) => !victimMarkets.includes(slug)).map((slug) => after.firstAnswer.get(slug)!))} | - |`);
  console.log(`meanwhile: ${after.refusals} answers 503 (Retry-After ${[...after.retryAfter].join(', ')}), ${after.errors} other errors; ${load()}`);

  // A fourth replica joins (unknown to the gateway): its markets move to it after a lease.
  const joinedAt = Date.now();
  replicas.push(await startReplica(3));
  await until(() => placementIs([...survivors, replicaUrls[3]!]), 600_000);
  const moved = [...(await holders())].filter(([, holder]) => holder === replicaUrls[3]).map(([slug]) => slug);
  console.log(`a fourth replica: up and its ${moved.length} market(s) moved to it ${since(joinedAt)} ms after it was started (it takes over from live replicas once up a lease); ${load()}`);
} finally {
  for (const child of children.values()) await stop(child);
  await db.end();
  if (process.env.BENCH_KEEP !== '1') await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
  rmSync(work, { recursive: true, force: true });
}

async function weigh(slug: string) {
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const heap = () => {
    gc();
    gc();
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.external;
  };
  const handle = await openDatabase({ databaseUrl: DATABASE_URL, maxConnections: 2 });
  try {
    const vintageId = (await db.query<{ id: string }>('select current_vintage_id id from discovery.markets where slug = $1', [slug])).rows[0]!.id;
    const view = discoveryDb(handle.db);
    const before = heap();
    const ranking = await loadVintageIndex(view, vintageId);
    const withRanking = heap();
    const parcels = await loadParcelIndex(view, vintageId);
    parcels.locate(0, 0, 1);
    const withParcels = heap();
    // SharedArrayBuffers the restoring worker made are in neither heapUsed nor external here.
    const shared = [...heldBuffers(parcels)].filter((buffer) => buffer instanceof SharedArrayBuffer).reduce((sum, buffer) => sum + buffer.byteLength, 0);
    return {
      rankingBytes: withRanking - before,
      parcelBytes: withParcels - withRanking + shared,
      rankingCount: vintageIndexBytes(ranking),
      parcelCount: parcels.approximateBytes(),
    };
  } finally {
    await handle.close();
  }
}

function smallMarket(k: number) {
  const [lon, lat] = [-99 + k * 0.2, 33];
  return {
    type: 'FeatureCollection',
    features: Array.from({ length: SMALL_PARCELS }, (_, j) => {
      const [x, y] = [lon + (j % 25) * 0.003, lat + Math.floor(j / 25) * 0.003];
      return {
        type: 'Feature',
        geometry: { type: 'Polygon', coordinates: [[[x, y], [x + 0.002, y], [x + 0.002, y + 0.002], [x, y + 0.002], [x, y]]] },
        properties: { parcel_key: `s${k}-${j}`, acres: 5 + ((k * 7 + j * 13) % 90), zoning: j % 3 === 0 ? 'industrial' : 'agricultural' },
      };
    }),
  };
}

function spec(slug: string) {
  return {
    markets: [slug],
    must: [{ field: 'acres', op: '>=', value: 10 }],
    preferred: [
      { field: 'acres', op: 'between', value: [40, 2000], weight: 3 },
      { field: 'zoning', op: 'eq', value: 'industrial', weight: 1 },
    ],
    verdict_cutoffs: { pursue: 70, monitor: 40 },
  };
}

async function ask(gateway: string, slug: string): Promise<{ status: number; retryAfter: string | null }> {
  const response = await fetch(`${gateway}/v2/discovery/query`, { method: 'POST', headers: HEADERS, body: JSON.stringify({ buy_box: `bench-${slug}`, limit: 20 }) }).catch(() => undefined);
  if (!response) return { status: 0, retryAfter: null };
  await response.arrayBuffer();
  return { status: response.status, retryAfter: response.headers.get('retry-after') };
}

/** slug → the address of the live replica holding it. */
async function holders(): Promise<Map<string, string>> {
  const { rows } = await db.query<{ slug: string; url: string }>(
    `select m.slug, r.url from discovery.market_owners o join discovery.markets m on m.id = o.market_id join discovery.replicas r on r.id = o.replica_id where r.lease_expires_at >= now()`,
  );
  return new Map(rows.map((row) => [row.slug, row.url]));
}

/** Every market held where rendezvous hashing over exactly these replicas puts it. */
async function placementIs(urls: string[]): Promise<boolean> {
  const { rows: live } = await db.query<{ id: string; url: string; weight: number }>('select id, url, weight from discovery.replicas where lease_expires_at >= now()');
  if (live.length !== urls.length || !live.every((replica) => urls.includes(replica.url))) return false;
  const { rows } = await db.query<{ market_id: string; replica_id: string | null }>(
    'select m.id market_id, o.replica_id from discovery.markets m left join discovery.market_owners o on o.market_id = m.id where m.current_vintage_id is not null',
  );
  return rows.every((row) => row.replica_id === desiredReplica(row.market_id, live));
}

/** Bytes PostgreSQL holds of a market's current vintage: its partition with indexes and TOAST, its stored columns and shapes. */
async function postgresCopy(slug: string): Promise<number> {
  const { rows } = await db.query<{ bytes: string }>(
    `with v as (select v.id from discovery.markets m join discovery.vintages v on v.id = m.current_vintage_id where m.slug = $1)
     select (select pg_total_relation_size(c.oid) from pg_inherits i join pg_class c on c.oid = i.inhrelid
               where i.inhparent = 'discovery.parcels'::regclass and pg_get_expr(c.relpartbound, c.oid) like '%' || (select id from v) || '%')
          + (select coalesce(sum(pg_column_size(data)), 0) from discovery.vintage_columns where vintage_id = (select id from v))
          + (select coalesce(sum(pg_column_size(data)), 0) from discovery.vintage_parcel_shapes where vintage_id = (select id from v)) as bytes`,
    [slug],
  );
  return Number(rows[0]!.bytes);
}

async function gauge(metricsUrl: string, name: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}{`) || candidate.startsWith(`${name} `));
  return line ? Number(line.trim().split(/\s+/).at(-1)) : Number.NaN;
}

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/** Polls a condition every 50 ms (a benchmark's timing resolution) until it holds, or fails after `timeoutMs`. */
async function until(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition().catch(() => false)) return;
    await sleep(50);
  }
  throw new Error('condition not met in time');
}
