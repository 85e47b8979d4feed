/**
 * npm run bench:reports — leads, deliveries and reports, through the REST gateway on
 * real PostgreSQL with the demo market and its layers:
 * - the site report GET /v1/properties/{id}/pdf, p50/p99 over many renders, beside its own data as
 *   JSON (GET /v1/properties/{id}) measured in the same run (target: PDF p50 ≤ 150 ms);
 * - a 100-lead delivery as one PDF, GET /v1/deliveries/{id}/pdf, beside the delivery's JSON
 *   (target ≤ 3 s);
 * - site reports whose contact is written in Chinese and Japanese, in Hangul, in Thai (each set in
 *   the fallback font that has it), beside the same report with a Latin contact, interleaved;
 * - a 10,000-row lead import POST /v1/leads/import (target ≤ 10 s), first, repeated and onto the
 *   board, beside the same rows resolved one call each (importRows).
 * Environment: BENCH_PARCELS (default 20000), BENCH_RENDERS (default 200), BENCH_LEADS (default 100),
 * BENCH_IMPORT_ROWS (default 10000), BENCH_PARTS (any of `reports`, `scripts`, `import`, comma-separated; all by default).
 */
import os from 'node:os';
import pg from 'pg';
import { landscreen } from './lib/cli.js';
import { freshDatabase } from './lib/database.js';
import { percentile } from './lib/measure.js';
import { freePort, startLandscreen, stop, waitUntilReady } from './lib/processes.js';

const parcels = Number(process.env.BENCH_PARCELS ?? 20_000);
const renders = Number(process.env.BENCH_RENDERS ?? 200);
const leadCount = Number(process.env.BENCH_LEADS ?? 100);
const importCount = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);
const HEADERS = { authorization: 'Bearer dev:demo@landscreen.local', 'x-tenant': 'demo' };

interface Answer {
  status: number;
  body: any;
  bytes: number;
  ms: number;
  /** Server-Timing durations by name (the PDF routes answer gather and render). */
  timing: Record<string, number>;
}

async function call(base: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const started = process.hrtime.bigint();
  const response = await fetch(base + path, {
    method,
    headers: { ...HEADERS, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const buffer = Buffer.from(await response.arrayBuffer());
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const json = response.headers.get('content-type')?.includes('json');
  const timing = Object.fromEntries(
    (response.headers.get('server-timing') ?? '')
      .split(',')
      .map((entry) => entry.trim().match(/^(\w+);dur=([\d.]+)$/))
      .filter((match) => match !== null)
      .map((match) => [match[1]!, Number(match[2])]),
  );
  return { status: response.status, body: json && buffer.length > 0 ? JSON.parse(buffer.toString('utf8')) : undefined, bytes: buffer.length, ms, timing };
}

function expectStatus(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status) throw new Error(`${what} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer;
}

const median = (samples: number[]) => percentile([...samples].sort((a, b) => a - b), 0.5);

const row = (label: string, samples: number[], note = '') => {
  const sorted = [...samples].sort((a, b) => a - b);
  const fixed = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
  return `| ${label} | ${sorted.length} | ${fixed(percentile(sorted, 0.5))} | ${fixed(percentile(sorted, 0.99))} | ${note} |`;
};

/** Promotes the best `count` parcels of the box; answers their property ids. */
async function promoteBest(base: string, box: string, count: number): Promise<string[]> {
  const page = expectStatus(await call(base, 'POST', '/v2/discovery/query', { buy_box: box, limit: count }), 200, 'query').body;
  const ids: string[] = [];
  for (const result of page.results) {
    const promoted = expectStatus(await call(base, 'POST', '/v2/pipeline', { parcel_key: result.parcel_key, buy_box: box, query_hash: page.query_hash }), 202, 'promotion');
    ids.push(promoted.body.property_id);
  }
  return ids;
}

/** The site report and its JSON peer, interleaved so both see the same machine. */
async function propertyReports(base: string, propertyIds: string[]): Promise<string[]> {
  const pdf: number[] = [];
  const json: number[] = [];
  const render: number[] = [];
  let bytes = 0;
  for (const id of propertyIds) {
    expectStatus(await call(base, 'GET', `/v1/properties/${id}/pdf`), 200, 'warm-up site report');
    expectStatus(await call(base, 'GET', `/v1/properties/${id}`), 200, 'warm-up property');
  }
  for (let index = 0; index < renders; index++) {
    const id = propertyIds[index % propertyIds.length]!;
    const report = expectStatus(await call(base, 'GET', `/v1/properties/${id}/pdf`), 200, 'site report');
    pdf.push(report.ms);
    render.push(report.timing.render ?? Number.NaN);
    bytes += report.bytes;
    json.push(expectStatus(await call(base, 'GET', `/v1/properties/${id}`), 200, 'property').ms);
  }
  return [
    row('GET /v1/properties/{id}/pdf (site report)', pdf, `${Math.round(bytes / renders / 1024)} KiB a report; render p50 ${median(render).toFixed(1)} ms of it`),
    row('GET /v1/properties/{id} (the same data as JSON: peer)', json),
  ];
}

/** Contacts in the scripts a report sets in a fallback font, and a Latin one (the peer). */
const SCRIPT_CONTACTS: [string, string][] = [
  ['Latin (DejaVu Sans only: peer)', 'John Smith (Smith Farms LLC)'],
  ['Chinese and Japanese (Noto Sans SC)', '王小明（山田太郎）'],
  ['Hangul (Noto Sans KR)', '김민준 (서울특별시 강남구)'],
  ['Thai (Noto Sans Thai)', 'สมชาย ใจดี'],
];

/** The site report of properties alike but for their contact's script, interleaved so all see the same machine. */
async function scriptReports(base: string, propertyIds: string[]): Promise<string[]> {
  const ids = propertyIds.slice(-SCRIPT_CONTACTS.length);
  for (const [index, [, name]] of SCRIPT_CONTACTS.entries()) {
    expectStatus(await call(base, 'POST', `/v1/properties/${ids[index]}/reveal`, { contact: { name }, provider: 'bench', provider_request_id: `script-${index}`, cost_usd: '0.0100' }), 201, 'reveal');
  }
  const total = SCRIPT_CONTACTS.map(() => [] as number[]);
  const render = SCRIPT_CONTACTS.map(() => [] as number[]);
  const bytes = SCRIPT_CONTACTS.map(() => 0);
  const first = SCRIPT_CONTACTS.map((_, index) => index);
  for (const [index] of SCRIPT_CONTACTS.entries()) {
    const report = expectStatus(await call(base, 'GET', `/v1/properties/${ids[index]}/pdf`), 200, 'first site report of its script');
    first[index] = report.timing.render ?? Number.NaN;
  }
  for (let round = 0; round < Math.max(10, Math.round(renders / 4)); round++) {
    for (const [index] of SCRIPT_CONTACTS.entries()) {
      const report = expectStatus(await call(base, 'GET', `/v1/properties/${ids[index]}/pdf`), 200, 'site report');
      total[index]!.push(report.ms);
      render[index]!.push(report.timing.render ?? Number.NaN);
      bytes[index] = report.bytes;
    }
  }
  return SCRIPT_CONTACTS.map(([label], index) =>
    row(`GET /v1/properties/{id}/pdf, contact in ${label}`, total[index]!, `${Math.round(bytes[index]! / 1024)} KiB; render p50 ${median(render[index]!).toFixed(1)} ms (the first of its script: ${first[index]!.toFixed(0)} ms)`),
  );
}

async function fulfilledDelivery(base: string, box: string, count: number): Promise<string> {
  const request = expectStatus(await call(base, 'POST', '/v1/lead-requests', { buy_box: box, count, note: 'bench' }), 201, 'lead request').body;
  for (let attempt = 0; attempt < 1200; attempt++) {
    const list = expectStatus(await call(base, 'GET', '/v1/lead-requests'), 200, 'lead requests').body;
    const found = list.lead_requests.find((entry: { id: string }) => entry.id === request.id);
    if (found?.status === 'fulfilled') return found.delivery_id;
    if (found?.status === 'failed') throw new Error(`lead request failed: ${JSON.stringify(found)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the lead request was not fulfilled within 2 minutes');
}

/** A delivery of `leadCount` leads as one PDF, beside the delivery's JSON. */
async function deliveryReports(base: string, box: string): Promise<string[]> {
  const deliveryId = await fulfilledDelivery(base, box, leadCount);
  const delivery = expectStatus(await call(base, 'GET', `/v1/deliveries/${deliveryId}`), 200, 'delivery').body;
  const pdf: number[] = [];
  const json: number[] = [];
  const render: number[] = [];
  let bytes = 0;
  expectStatus(await call(base, 'GET', `/v1/deliveries/${deliveryId}/pdf`), 200, 'warm-up delivery report');
  for (let index = 0; index < 5; index++) {
    const report = expectStatus(await call(base, 'GET', `/v1/deliveries/${deliveryId}/pdf`), 200, 'delivery report');
    pdf.push(report.ms);
    render.push(report.timing.render ?? Number.NaN);
    bytes = report.bytes;
    json.push(expectStatus(await call(base, 'GET', `/v1/deliveries/${deliveryId}`), 200, 'delivery').ms);
  }
  return [
    row(`GET /v1/deliveries/{id}/pdf (${delivery.leads.length} leads)`, pdf, `${Math.round(bytes / 1024)} KiB; render p50 ${median(render).toFixed(0)} ms of it, the rest reading ${delivery.leads.length} property pages`),
    row(`GET /v1/deliveries/{id} (the same delivery as JSON: peer)`, json),
  ];
}

/** The rows of a broker's list: APNs as people type them, addresses, points, and some junk. */
async function importBody(databaseUrl: string, count: number) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ apn: string | null; address: string | null; lat: number | null; lon: number | null }>(
      `select p.apn, p.address, p.lat, p.lon from discovery.parcels p
       join discovery.markets m on m.current_vintage_id = p.vintage_id
       where m.slug = 'demo-tx' order by p.parcel_key limit $1`,
      [count],
    );
    return rows.map((parcel, index) => {
      const ref = `row-${index}`;
      switch (index % 20) {
        case 0: return { ref, apn: `NOPE-${index}` }; // not found
        case 1: return { ref, lat: 95, lon: 0 }; // invalid
        case 2: case 3: case 4: return { ref, lat: parcel.lat, lon: parcel.lon }; // by point
        case 5: case 6: case 7: case 8: return { ref, address: parcel.address?.toUpperCase() }; // by address
        default: return { ref, apn: parcel.apn?.toLowerCase().replace(/-/g, ' ') }; // by APN, typed loosely
      }
    });
  } finally {
    await client.end();
  }
}

/**
 * H5: a 10,000-row lead import on PostgreSQL (target ≤ 10 s): first (every property made, screened
 * against the box), repeated (idempotent: nothing made), and onto the board (cards and queued
 * jobs). Peer in the same run: the same rows resolved one call each through POST /v2/parcels/resolve
 * (a sample of 200, scaled to the whole list) — what a client would do without the import.
 */
async function importRows(base: string, databaseUrl: string): Promise<string[]> {
  const rows = await importBody(databaseUrl, importCount);
  const timed = async (label: string, body: Record<string, unknown>) => {
    const answer = expectStatus(await call(base, 'POST', '/v1/leads/import', body), 201, label);
    const summary = answer.body.summary;
    return row(label, [answer.ms], `${summary.resolved} resolved, ${summary.ambiguous} ambiguous, ${summary.not_found} not found, ${summary.invalid} invalid; ${summary.properties_created} properties, ${summary.pipeline_items_created} cards made`);
  };
  const lines = [
    await timed(`POST /v1/leads/import (${rows.length.toLocaleString('en-US')} rows, buy_box)`, { market: 'demo-tx', rows, buy_box: 'bench' }),
    await timed(`POST /v1/leads/import (the same rows again)`, { market: 'demo-tx', rows, buy_box: 'bench' }),
    await timed(`POST /v1/leads/import (the same rows, add_to_pipeline)`, { market: 'demo-tx', rows, buy_box: 'bench', add_to_pipeline: true }),
  ];
  const single: number[] = [];
  for (const entry of rows.slice(0, 200)) {
    if (!entry.apn && !entry.address) continue;
    single.push(expectStatus(await call(base, 'POST', '/v2/parcels/resolve', { market: 'demo-tx', apn: entry.apn, address: entry.address }), 200, 'resolve').ms);
  }
  const sorted = [...single].sort((a, b) => a - b);
  lines.push(row('POST /v2/parcels/resolve (one row a call: peer)', single, `× ${rows.length.toLocaleString('en-US')} rows ≈ ${((percentile(sorted, 0.5) * rows.length) / 1000).toFixed(1)} s`));
  return lines;
}

async function main() {
  const databaseUrl = await freshDatabase('landscreen_bench_reports');
  const port = await freePort();
  // No diligence worker: the figures are the reports' own.
  // A generous connect timeout: the demo load and the benchmark share a busy 2-core machine.
  const env = { DATABASE_URL: databaseUrl, PORT: String(port), AUTH_DEV: '1', WORKER_EMBEDDED: '0', DB_CONNECT_TIMEOUT_MS: '30000' };
  await landscreen(['demo', '--parcels', String(parcels)], env);
  const child = startLandscreen(['serve'], env);
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(`${base}/readyz`);
    const spec = {
      markets: ['demo-tx'],
      must: [{ field: 'acres', op: 'gte', value: 20 }],
      preferred: [
        { field: 'acres', op: 'gte', value: 100, weight: 1 },
        { field: 'nearest_substation_distance_m', op: 'lte', value: 5000, weight: 2 },
      ],
      verdict_cutoffs: { pursue: 70, monitor: 40 },
    };
    expectStatus(await call(base, 'POST', '/v1/buyboxes', { name: 'bench', spec }), 201, 'buy box');
    const propertyIds = await promoteBest(base, 'bench', 20);
    // BENCH_PARTS names the parts to run (default all).
    const parts = (process.env.BENCH_PARTS ?? 'reports,scripts,import').split(',');
    const rows: string[] = [];
    if (parts.includes('reports')) rows.push(...(await propertyReports(base, propertyIds)), ...(await deliveryReports(base, 'bench')));
    if (parts.includes('scripts')) rows.push(...(await scriptReports(base, propertyIds)));
    if (parts.includes('import')) rows.push(...(await importRows(base, databaseUrl)));
    console.log(`npm run bench:reports — ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} — ${os.cpus().length} cores, Node ${process.version}, PostgreSQL, demo market of ${parcels.toLocaleString('en-US')} parcels with its layers`);
    console.log('');
    console.log('| request | n | p50 ms | p99 ms | note |');
    console.log('|---|---|---|---|---|');
    for (const line of rows) console.log(line);
  } finally {
    await stop(child);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
