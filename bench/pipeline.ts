/**
 * npm run bench:pipeline — promotion and the board, through the REST gateway on real
 * PostgreSQL: POST /v2/pipeline p50/p99 for new promotions and for repeated ones (`existing`),
 * one request at a time and with 8 concurrent clients; then GET /v1/pipeline of a board of 5,000
 * cards. Targets: promotion p99 ≤ 30 ms; board p50 ≤ 50 ms.
 * Environment: BENCH_CARDS (default 5000), BENCH_PARCELS (default 20000).
 */
import { landscreen } from './lib/cli.js';
import { freshDatabase } from './lib/database.js';
import { freePort, startLandscreen, stop, waitUntilReady } from './lib/processes.js';
import { percentile } from './lib/measure.js';

const cards = Number(process.env.BENCH_CARDS ?? 5000);
const parcels = Number(process.env.BENCH_PARCELS ?? 20_000);
const HEADERS = { authorization: 'Bearer dev:demo@landscreen.local', 'x-tenant': 'demo', 'content-type': 'application/json' };

const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  // A small BENCH_CARDS leaves nothing for the later kinds.
  if (sorted.length === 0) return { p50: '–', p99: '–', n: 0 };
  return { p50: percentile(sorted, 0.5).toFixed(1), p99: percentile(sorted, 0.99).toFixed(1), n: sorted.length };
};

async function call(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any; ms: number }> {
  const started = process.hrtime.bigint();
  const response = await fetch(base + path, { method, headers: HEADERS, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return { status: response.status, body: text ? JSON.parse(text) : undefined, ms };
}

/** Every parcel key a box ranks, by walking its cursor pages. */
async function rankedKeys(base: string, box: string, wanted: number): Promise<{ keys: string[]; queryHash: string }> {
  const keys: string[] = [];
  let cursor: string | null = null;
  let queryHash = '';
  do {
    const page = await call(base, 'POST', '/v2/discovery/query', { buy_box: box, limit: 200, cursor });
    if (page.status !== 200) throw new Error(`query answered ${page.status}: ${JSON.stringify(page.body)}`);
    queryHash = page.body.query_hash;
    keys.push(...page.body.results.map((row: any) => row.parcel_key));
    cursor = page.body.next_cursor;
  } while (cursor && keys.length < wanted);
  if (new Set(keys).size !== keys.length) throw new Error('discovery paging returned a parcel twice');
  return { keys: keys.slice(0, wanted), queryHash };
}

async function main() {
  const databaseUrl = await freshDatabase('landscreen_bench_pipeline');
  const port = await freePort();
  // The embedded worker would run each promoted job's diligence in the same process while the
  // promotions are timed: off, so the figures are promotion's own.
  const env = { DATABASE_URL: databaseUrl, PORT: String(port), AUTH_DEV: '1', WORKER_EMBEDDED: '0' };
  await landscreen(['demo', '--parcels', String(parcels)], env);
  const child = startLandscreen(['serve'], env);
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(`${base}/readyz`);
    // No must-have: every parcel ranks, so the board can be filled with ranked promotions.
    const spec = { markets: ['demo-tx'], must: [], preferred: [{ field: 'acres', op: '>=', value: 50, weight: 1 }], verdict_cutoffs: { pursue: 70, monitor: 40 } };
    const created = await call(base, 'POST', '/v1/buyboxes', { name: 'bench', spec });
    if (created.status !== 201) throw new Error(`buy box: ${created.status} ${JSON.stringify(created.body)}`);
    const { keys, queryHash } = await rankedKeys(base, 'bench', cards);

    const promote = (key: string) => call(base, 'POST', '/v2/pipeline', { parcel_key: key, buy_box: 'bench', query_hash: queryHash });
    const expect202 = (answer: { status: number; body: any }) => {
      if (answer.status !== 202) throw new Error(`promotion answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    };
    for (const key of keys.slice(0, 50)) expect202(await promote(key)); // warm-up
    const sequentialNew: number[] = [];
    for (const key of keys.slice(50, 1050)) {
      const answer = await promote(key);
      expect202(answer);
      sequentialNew.push(answer.ms);
    }
    const repeated: number[] = [];
    for (const key of keys.slice(50, 1050)) {
      const answer = await promote(key);
      expect202(answer);
      if (answer.body.status !== 'existing') throw new Error('a repeated promotion created something');
      repeated.push(answer.ms);
    }
    // 8 clients at once fill the rest of the board.
    const concurrent: number[] = [];
    const rest = keys.slice(1050);
    const startedAt = Date.now();
    await Promise.all(
      Array.from({ length: 8 }, async (_, worker) => {
        for (let index = worker; index < rest.length; index += 8) {
          const answer = await promote(rest[index]!);
          expect202(answer);
          concurrent.push(answer.ms);
        }
      }),
    );
    const concurrentRate = Math.round(rest.length / ((Date.now() - startedAt) / 1000));

    const boardTimes: number[] = [];
    for (let index = 0; index < 10; index++) await call(base, 'GET', '/v1/pipeline');
    let total = 0;
    for (let index = 0; index < 100; index++) {
      const answer = await call(base, 'GET', '/v1/pipeline');
      total = answer.body.total;
      boardTimes.push(answer.ms);
    }

    const line = (label: string, samples: number[], extra = '') => {
      const { p50, p99, n } = summary(samples);
      return `| ${label} | ${n} | ${p50} | ${p99} | ${extra} |`;
    };
    console.log(`npm run bench:pipeline — ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} — ${(await import('node:os')).cpus().length} cores, Node ${process.version}, PostgreSQL, demo market of ${parcels.toLocaleString('en-US')} parcels`);
    console.log('');
    console.log('| request | n | p50 ms | p99 ms | note |');
    console.log('|---|---|---|---|---|');
    console.log(line('POST /v2/pipeline, new (one at a time)', sequentialNew));
    console.log(line('POST /v2/pipeline, repeated → existing', repeated));
    console.log(line('POST /v2/pipeline, new, 8 clients at once', concurrent, `${concurrentRate} promotions/s`));
    console.log(line(`GET /v1/pipeline, board of ${total.toLocaleString('en-US')} cards`, boardTimes));
  } finally {
    await stop(child);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
