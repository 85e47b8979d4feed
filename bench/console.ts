/**
 * npm run bench:console — the console's map on the 1,000,000-parcel demo market (D40). Builds (or
 * reuses) the market on real PostgreSQL by writing the demo generator's GeoJSON and importing it
 * with `landscreen import parcels` (its parcels carry their facts; no layers are needed to draw
 * them), starts the server, saves a buy box and measures:
 * - parcel tiles over HTTP at z10, z12 and z14: p50/p99 of distinct tiles asked once each (the
 *   server's tile cache cold; the ranking warm, as on a map someone is using), then the same
 *   tiles again (the gateway's cache and a 304 with If-None-Match), beside geojson-vt (MapLibre's
 *   fork) tiling the same parcels with the same verdicts in this process and vt-pbf encoding them;
 * - the first tile of a vintage (the ranking and the parcels' polygons loaded into memory), then
 *   the server restarted: how long until it is ready and until its first tile (the parcel index
 *   read back as the import stored it), with /healthz asked every 50 ms meanwhile (the event
 *   loop's longest block);
 * - a request's fixed costs beside the tiles: GET /healthz and GET /v1/me (authentication);
 * - the first map paint in headless Chromium: from opening the console to the parcels drawn, when
 *   each kind of request it waits for was answered, beside a blank MapLibre map in the same browser
 *   (SwiftShader's and MapLibre's own share);
 * - the console's own code gzipped (esbuild's bundle and the stylesheet), MapLibre beside it.
 * Environment: BENCH_PARCELS (default 1000000), BENCH_TILES (tiles per zoom, default 60),
 * BENCH_REBUILD=1 to reload, BENCH_LOAD_ONLY=1 to build the market and stop, BENCH_PAINT_ONLY=1 to
 * measure only the first tile and the first paint, TEST_DATABASE_URL,
 * CHROMIUM_PATH.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { GeoJSONVT } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { chromium } from 'playwright-core';
import { writeDemoGeoJson } from '@landscreen/demo-market';
import { bundleApp } from '@landscreen/console';
import { BIN, NODE_FLAGS, freePort, startLandscreen, stop, waitUntilReady } from './lib/processes.js';
import { percentile } from './lib/measure.js';

const parcels = Number(process.env.BENCH_PARCELS ?? 1_000_000);
const tilesPerZoom = Number(process.env.BENCH_TILES ?? 60);
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const database = `landscreen_bench_console_${parcels}`;
const market = 'bench-map';
const tenant = 'bench';
const run = promisify(execFile);
const url = new URL(adminUrl);
url.pathname = `/${database}`;
const headers = { authorization: 'Bearer dev:bench@landscreen.local:analyst', 'x-tenant': tenant, 'content-type': 'application/json' };
const ZOOMS = [10, 12, 14];
/** BENCH_PAINT_ONLY=1: the first tile, then straight to the first paint (no restart, no tile table). */
const paintOnly = process.env.BENCH_PAINT_ONLY === '1';

const SPEC = {
  markets: [market],
  must: [
    { field: 'acres', op: '>=', value: 5 },
    { field: 'zoning', op: 'in', value: ['industrial', 'agricultural', 'commercial', 'planned_development'] },
  ],
  preferred: [
    { field: 'nearest_substation_distance_m', op: '<=', value: 3000, weight: 5 },
    { field: 'acres', op: '>=', value: 40, weight: 2 },
    { field: 'slope_degrees', op: '<=', value: 5, weight: 1 },
  ],
  verdict_cutoffs: { pursue: 70, monitor: 40 },
};

const cli = (args: string[], env: Record<string, string>) =>
  run(process.execPath, [...NODE_FLAGS, BIN, ...args], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, maxBuffer: 64 * 1024 * 1024 });

/** Loads the market unless a database with it exists; answers the seconds it took, or undefined. */
async function ensureMarket(env: Record<string, string>): Promise<number | undefined> {
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
  const dir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-bench-console-'));
  try {
    const file = path.join(dir, 'parcels.geojson');
    await writeDemoGeoJson(file, { parcels, market });
    await cli(['import', 'parcels', '--market', market, '--file', file], env);
    await cli(['tenant', 'create', '--slug', tenant, '--name', 'Bench'], env);
    await cli(['entitle', '--tenant', tenant, '--market', market], env);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return (Date.now() - started) / 1000;
}

/** The market's extent from its parcels' representative points. */
async function marketExtent(): Promise<{ vintageId: string; west: number; south: number; east: number; north: number }> {
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  try {
    const { rows } = await db.query(
      `select v.id, min(p.lon) w, min(p.lat) s, max(p.lon) e, max(p.lat) n
       from discovery.markets m join discovery.vintages v on v.id = m.current_vintage_id join discovery.parcels p on p.vintage_id = v.id
       where m.slug = $1 group by v.id`,
      [market],
    );
    return { vintageId: rows[0].id, west: rows[0].w, south: rows[0].s, east: rows[0].e, north: rows[0].n };
  } finally {
    await db.end();
  }
}

const tileX = (lon: number, z: number) => Math.floor(((lon + 180) / 360) * 2 ** z);
const tileY = (lat: number, z: number) => Math.floor(((1 - Math.asinh(Math.tan((lat * Math.PI) / 180)) / Math.PI) / 2) * 2 ** z);
const lonOf = (x: number, z: number) => (x / 2 ** z) * 360 - 180;
const latOf = (y: number, z: number) => (Math.atan(Math.sinh(Math.PI - (2 * Math.PI * y) / 2 ** z)) * 180) / Math.PI;

/** Distinct tiles of the market's inner part at zoom z (a fixed pseudo-random pick, the same every run). */
function sampleTiles(extent: Awaited<ReturnType<typeof marketExtent>>, z: number, count: number): { z: number; x: number; y: number }[] {
  const shrink = 0.15;
  const w = extent.west + (extent.east - extent.west) * shrink;
  const e = extent.east - (extent.east - extent.west) * shrink;
  const s = extent.south + (extent.north - extent.south) * shrink;
  const n = extent.north - (extent.north - extent.south) * shrink;
  const [x0, x1, y0, y1] = [tileX(w, z), tileX(e, z), tileY(n, z), tileY(s, z)];
  const all: { z: number; x: number; y: number }[] = [];
  for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) all.push({ z, x, y });
  let seed = 42 + z;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all.slice(0, count);
}

const quantiles = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
};
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function getTile(base: string, tile: { z: number; x: number; y: number }, extra: Record<string, string> = {}) {
  const started = performance.now();
  const response = await fetch(`${base}/v1/tiles/parcels/${market}/${tile.z}/${tile.x}/${tile.y}.mvt?buy_box=map`, { headers: { ...headers, ...extra } });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const ms = performance.now() - started;
  if (response.status !== 200 && response.status !== 304) throw new Error(`tile ${JSON.stringify(tile)} answered ${response.status}: ${Buffer.from(bytes).toString().slice(0, 300)}`);
  return { ms, bytes, status: response.status, etag: response.headers.get('etag')! };
}

/** geojson-vt tiling the tile's parcels (their source polygons, with the verdicts the server drew) and vt-pbf encoding them. */
async function geojsonVtPeer(db: pg.Client, vintageId: string, tile: { z: number; x: number; y: number }, drawn: Map<string, { verdict: string; score: number }>) {
  const margin = 0.03;
  const { rows } = await db.query(
    `select parcel_key, geometry from discovery.parcels where vintage_id = $1 and lon between $2 and $3 and lat between $4 and $5`,
    [vintageId, lonOf(tile.x, tile.z) - margin, lonOf(tile.x + 1, tile.z) + margin, latOf(tile.y + 1, tile.z) - margin, latOf(tile.y, tile.z) + margin],
  );
  const features = rows
    .filter((row) => drawn.has(row.parcel_key))
    .map((row) => ({ type: 'Feature' as const, geometry: row.geometry, properties: { parcel_key: row.parcel_key, ...drawn.get(row.parcel_key)! } }));
  const started = performance.now();
  const index = new GeoJSONVT({ type: 'FeatureCollection', features }, { maxZoom: tile.z, indexMaxZoom: 0, tolerance: 0, buffer: 64, extent: 4096 });
  const built = index.getTile(tile.z, tile.x, tile.y);
  const bytes = built ? fromGeojsonVt({ parcels: built }, { version: 2, extent: 4096 }) : new Uint8Array();
  return { ms: performance.now() - started, features: features.length, bytes: bytes.byteLength };
}

const PAINT_VISITS = [
  'first map paint, returning (the view kept)',
  'first map paint, a first visit of the buy box (framed by the ranking\'s first page)',
  'the same paint again, returning, the server\'s tiles cached',
];

/** What the console's first paint waited for: when each kind of request's answer had arrived, from the navigation. */
interface PaintBreakdown {
  ms: number;
  toShellMs: number;
  /** Resource kind → [first response end, last response end] in ms from the navigation, and the count. */
  resources: Record<string, { first: number; last: number; count: number }>;
}

const RESOURCE_KINDS: [string, RegExp][] = [
  ['app.js', /\/console\/app\.js/],
  ['maplibre-gl.mjs', /maplibre-gl\.mjs/],
  ['maplibre worker', /maplibre-gl-worker/],
  ['outlines (counties-10m.json)', /counties-10m\.json/],
  ['/v1/me, /v1/buyboxes, /v1/meta/sources', /\/v1\/(me|buyboxes|meta\/sources)\b/],
  ['first ranking page', /\/v2\/discovery\/query/],
  ['parcel tiles', /\/v1\/tiles\/parcels\//],
  ['layer tiles', /\/v1\/tiles\/layers\//],
];

async function signIn(base: string, dataDir: string): Promise<string> {
  const response = await fetch(`${base}/v1/auth/request-link`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@landscreen.local', tenant }) });
  if (!response.ok) throw new Error(`request-link answered ${response.status}`);
  for (let i = 0; i < 200; i++) {
    try {
      const mails = readFileSync(path.join(dataDir, 'mailbox.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { text: string });
      const link = mails.at(-1)?.text.match(/https?:\/\/\S+\/auth\/verify\?token=\S+/)?.[0];
      if (link) return link;
    } catch {
      // not written yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('no sign-in link in the mailbox');
}

/** A page of the gateway's origin (served by the browser itself) that draws a blank MapLibre map with MapLibre's files from /console/. */
const BLANK_MAP_PAGE = `<!doctype html><html><head><link rel="stylesheet" href="/console/maplibre-gl.css"></head>
<body style="margin:0"><div id="map" style="width:100vw;height:100vh"></div><script type="module">
import { Map } from '/console/maplibre-gl.mjs';
const map = new Map({ container: 'map', style: { version: 8, sources: {}, layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#f4f1ea' } }] }, center: [-98.5, 31.2], zoom: 10, attributionControl: false });
map.once('idle', () => { window.blankMapIdle = performance.now(); });
</script></body></html>`;

async function firstPaint(base: string, dataDir: string): Promise<{ paints: PaintBreakdown[]; blankMapMs: number[] }> {
  const link = await signIn(base, dataDir);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--no-sandbox', '--disable-gpu-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 860 } });
    const page = await context.newPage();
    await page.goto(link);
    await page.locator('header .who').waitFor({ timeout: 60_000 });
    // The peer first, in the same browser: MapLibre's files (cached by now, as for the console's
    // second visit) and a blank map: SwiftShader's and MapLibre's own share of a first paint.
    await page.route(`${base}/bench/blank-map.html`, (route) => route.fulfill({ contentType: 'text/html', body: BLANK_MAP_PAGE }));
    const blankMapMs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await page.goto(`${base}/bench/blank-map.html`);
      await page.waitForFunction(() => (globalThis as any).blankMapIdle !== undefined, undefined, { timeout: 120_000, polling: 16 });
      blankMapMs.push(performance.now() - started);
    }
    // Visits signed in, from navigation to the parcels drawn: as a returning user opens the
    // console (the map opens where the sign-in visit left it); as a first visit of the buy box (no
    // view kept: the ranking's first page frames the map); then once more returning, the
    // server's tiles now cached (the browser revalidates them: 304s).
    const paints: PaintBreakdown[] = [];
    for (let visit = 0; visit < PAINT_VISITS.length; visit++) {
      if (visit === 1) await page.evaluate(() => {
        const storage = (globalThis as unknown as { localStorage: { removeItem(key: string): void } & Record<string, unknown> }).localStorage;
        for (const key of Object.keys(storage)) if (key.startsWith('landscreen.view.')) storage.removeItem(key);
      });
      const tileEnds: number[] = [];
      const started = performance.now();
      const onFinished = (request: { url(): string }) => {
        if (request.url().includes('/v1/tiles/parcels/')) tileEnds.push(performance.now() - started);
      };
      // MapLibre fetches tiles in its worker, outside the page's resource timings: the browser's own events see them.
      page.on('requestfinished', onFinished);
      await page.goto(`${base}/?visit=${visit}#/map`);
      await page.locator('header .who').waitFor({ timeout: 60_000 });
      const toShellMs = performance.now() - started;
      await page.waitForFunction(
        () => {
          const map = (globalThis as any).landscreen?.map;
          return !!map && map.areTilesLoaded() && map.queryRenderedFeatures({ layers: ['parcels-fill'] }).length > 0;
        },
        undefined,
        { timeout: 120_000, polling: 16 },
      );
      const ms = performance.now() - started;
      page.off('requestfinished', onFinished);
      const entries = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => ({ name: entry.name, end: (entry as unknown as { responseEnd: number }).responseEnd })));
      const resources: PaintBreakdown['resources'] = {};
      const note = (kind: string, end: number) => {
        const found = (resources[kind] ??= { first: end, last: end, count: 0 });
        found.first = Math.min(found.first, end);
        found.last = Math.max(found.last, end);
        found.count++;
      };
      for (const entry of entries) {
        const kind = RESOURCE_KINDS.find(([, pattern]) => pattern.test(entry.name))?.[0];
        if (kind && kind !== 'parcel tiles') note(kind, entry.end);
      }
      for (const end of tileEnds) note('parcel tiles', end);
      paints.push({ ms, toShellMs, resources });
    }
    return { paints, blankMapMs };
  } finally {
    await browser.close();
  }
}

/** Runs `work` while /healthz is asked every 50 ms (each answer's time: the event loop's blocks show as the longest). */
async function whilePolling<T>(base: string, work: () => Promise<T>): Promise<{ value: T; health: number[] }> {
  let running = true;
  const health: number[] = [];
  const polling = (async () => {
    while (running) {
      const asked = performance.now();
      await (await fetch(`${base}/healthz`)).arrayBuffer();
      health.push(performance.now() - asked);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  try {
    return { value: await work(), health };
  } finally {
    running = false;
    await polling;
  }
}

const healthLine = (health: number[]) => {
  const h = quantiles(health);
  return `p50 ${fmt(h.p50)}, p99 ${fmt(h.p99)}, max ${fmt(Math.max(...health))} (${health.length} asked)`;
};

/** p50 of GET `path` asked `count` times one after another (the fixed costs a tile request carries). */
async function requestP50(base: string, pathname: string, count: number, withAuth: boolean): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await fetch(`${base}${pathname}`, withAuth ? { headers } : {});
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${pathname} answered ${response.status}`);
    samples.push(performance.now() - started);
  }
  return quantiles(samples).p50;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-bench-console-data-'));
  try {
    await measure(dataDir);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measure(dataDir: string): Promise<void> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { DATABASE_URL: url.toString(), AUTH_DEV: '1', DATA_DIR: dataDir, PORT: String(port), PUBLIC_URL: base, WORKER_EMBEDDED: '0', RUNS_WORKER_EMBEDDED: '0', DISCOVERY_CACHE_DIR: 'off' };
  const loadSeconds = await ensureMarket(env);
  console.log(`market ${market}: ${parcels.toLocaleString('en-US')} parcels${loadSeconds === undefined ? ' (reused)' : `, written and imported in ${loadSeconds.toFixed(0)} s`}`);
  if (process.env.BENCH_LOAD_ONLY === '1') return;
  console.log(`load average at start: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} (2 cores)`);

  const bundle = await bundleApp(path.resolve('packages/console/app'));
  const css = readFileSync('packages/console/app/styles.css');
  const maplibre = readFileSync('node_modules/maplibre-gl/dist/maplibre-gl.mjs');
  const worker = readFileSync('node_modules/maplibre-gl/dist/maplibre-gl-worker.mjs');
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(
    `console's own code: app.js ${kb(bundle.js.byteLength)} (${kb(gzipSync(bundle.js).byteLength)} gzipped, built by esbuild in ${bundle.ms.toFixed(0)} ms) + app.css ${kb(css.byteLength)} (${kb(gzipSync(css).byteLength)} gzipped)` +
      ` | MapLibre beside it: ${kb(gzipSync(maplibre).byteLength)} + worker ${kb(gzipSync(worker).byteLength)} gzipped`,
  );

  let server = startLandscreen(['serve'], env);
  try {
    await waitUntilReady(`${base}/readyz`, 300_000);
    await fetch(`${base}/v1/me`, { headers });
    await fetch(`${base}/v1/buyboxes/map`, { method: 'DELETE', headers: { authorization: headers.authorization, 'x-tenant': tenant } });
    const saved = await fetch(`${base}/v1/buyboxes`, { method: 'POST', headers, body: JSON.stringify({ name: 'map', spec: SPEC }) });
    if (saved.status !== 201) throw new Error(`saving the buy box answered ${saved.status}: ${await saved.text()}`);
    const extent = await marketExtent();

    // The first tile of a vintage loads the ranking and every parcel's polygon.
    const centre = { z: 14, x: tileX((extent.west + extent.east) / 2, 14), y: tileY((extent.south + extent.north) / 2, 14) };
    // Loading a million polygons can outlast a client's header timeout on a loaded machine: the
    // server goes on loading, so ask again until the tile comes.
    const firstStarted = performance.now();
    for (;;) {
      try {
        await getTile(base, centre);
        break;
      } catch (error) {
        if (performance.now() - firstStarted > 1_800_000) throw error;
      }
    }
    const first = { ms: performance.now() - firstStarted };
    console.log(`first tile of the vintage (ranking and ${parcels.toLocaleString('en-US')} polygons loaded): ${(first.ms / 1000).toFixed(1)} s`);

    if (!paintOnly) {
      // A restart: the ranking index loads before /readyz answers 200, the parcel index after it in
      // the background; the first tile is asked as soon as the server is ready.
      await stop(server);
      const restarted = performance.now();
      server = startLandscreen(['serve'], env);
      await waitUntilReady(`${base}/readyz`, 300_000, 50);
      const readyMs = performance.now() - restarted;
      // Meanwhile /healthz is asked every 50 ms: the longest it waits is the event loop's longest block.
      const { value: tileAfterRestart, health } = await whilePolling(base, () => getTile(base, centre));
      console.log(
        `after a restart: ready in ${(readyMs / 1000).toFixed(1)} s, the first tile ${(tileAfterRestart.ms / 1000).toFixed(2)} s later (${((performance.now() - restarted) / 1000).toFixed(1)} s from the start);` +
          ` meanwhile /healthz every 50 ms: ${healthLine(health)}`,
      );
      // The first point located in the vintage (POST /v1/lookup with include_parcel: LocateParcels),
      // its engine index made from the parts the parcel index's worker computed.
      const point = { lon: (extent.west + extent.east) / 2, lat: (extent.south + extent.north) / 2 };
      const located = await whilePolling(base, async () => {
        const started = performance.now();
        const response = await fetch(`${base}/v1/lookup`, { method: 'POST', headers, body: JSON.stringify({ ...point, market, include_parcel: true, radius_m: 1000 }) });
        const body = (await response.json()) as { parcel?: { parcel_key?: string } };
        if (response.status !== 200) throw new Error(`lookup answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
        return { ms: performance.now() - started, found: body.parcel != null };
      });
      const again = performance.now();
      await (await fetch(`${base}/v1/lookup`, { method: 'POST', headers, body: JSON.stringify({ lon: point.lon + 0.01, lat: point.lat, market, include_parcel: true, radius_m: 1000 }) })).arrayBuffer();
      console.log(
        `the first point located after the restart (POST /v1/lookup, include_parcel): ${fmt(located.value.ms)}${located.value.found ? '' : ' (no parcel found)'}, the next ${fmt(performance.now() - again)};` +
          ` meanwhile /healthz every 50 ms: ${healthLine(located.health)}`,
      );

      const db = new pg.Client({ connectionString: url.toString() });
      await db.connect();
      console.log('\n| zoom | tiles | parcels/tile p50 (max) | KB/tile p50 | cold p50 / p99 | cached p50 | 304 p50 | geojson-vt + vt-pbf, same parcels, p50 / p99 (tiles) |');
      console.log('|---|---|---|---|---|---|---|---|');
      try {
        for (const z of ZOOMS) {
          const tiles = sampleTiles(extent, z, tilesPerZoom);
          const cold: number[] = [];
          const warm: number[] = [];
          const revalidated: number[] = [];
          const counts: number[] = [];
          const sizes: number[] = [];
          const peer: number[] = [];
          for (const [i, tile] of tiles.entries()) {
            const answer = await getTile(base, tile);
            cold.push(answer.ms);
            sizes.push(answer.bytes.byteLength / 1024);
            const layer = new VectorTile(new PbfReader(answer.bytes)).layers.parcels;
            const drawn = new Map<string, { verdict: string; score: number }>();
            for (let f = 0; f < (layer?.length ?? 0); f++) {
              const p = layer!.feature(f).properties as { parcel_key: string; verdict: string; score: number };
              drawn.set(p.parcel_key, { verdict: p.verdict, score: p.score });
            }
            counts.push(drawn.size);
            warm.push((await getTile(base, tile)).ms);
            revalidated.push((await getTile(base, tile, { 'if-none-match': answer.etag })).ms);
            // The peer on a third of the tiles: reading their polygons back from PostgreSQL is slow.
            if (i % 3 === 0) peer.push((await geojsonVtPeer(db, extent.vintageId, tile, drawn)).ms);
          }
          const c = quantiles(cold);
          const p = quantiles(peer);
          console.log(
            `| z${z} | ${tiles.length} | ${quantiles(counts).p50.toLocaleString('en-US')} (${Math.max(...counts).toLocaleString('en-US')}) | ${quantiles(sizes).p50.toFixed(0)} | **${fmt(c.p50)}** / ${fmt(c.p99)} | ${fmt(quantiles(warm).p50)} | ${fmt(quantiles(revalidated).p50)} | ${fmt(p.p50)} / ${fmt(p.p99)} (${peer.length}) |`,
          );
        }
      } finally {
        await db.end();
      }

    }

    const [healthP50, meP50] = [await requestP50(base, '/healthz', 60, false), await requestP50(base, '/v1/me', 60, true)];
    console.log(`\na request's fixed costs, same run: GET /healthz p50 ${fmt(healthP50)} (no authentication, no database); GET /v1/me p50 ${fmt(meP50)} (authentication)`);

    const { paints, blankMapMs } = await firstPaint(base, dataDir);
    for (const [visit, paint] of paints.entries()) {
      console.log(
        `\n${PAINT_VISITS[visit]} in headless Chromium (SwiftShader): ${(paint.ms / 1000).toFixed(2)} s from navigation to the parcels drawn (the page signed in after ${(paint.toShellMs / 1000).toFixed(2)} s)`,
      );
      console.log('  answers arrived, from the navigation:');
      for (const [kind] of RESOURCE_KINDS) {
        const found = paint.resources[kind];
        if (found) console.log(`    ${kind}: ${found.count === 1 ? `${(found.first / 1000).toFixed(2)} s` : `${found.count}, first ${(found.first / 1000).toFixed(2)} s, last ${(found.last / 1000).toFixed(2)} s`}`);
      }
    }
    console.log(`peer, same browser: a blank MapLibre map (background only, MapLibre's files cached) idle after ${blankMapMs.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')}`);
  } finally {
    await stop(server);
  }
}

await main();
