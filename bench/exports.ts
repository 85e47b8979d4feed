/**
 * npm run bench:exports — exporting a ranking (D40) and ranking with graded preferences (D41).
 *
 * 1. A market of BENCH_PARCELS (default 20,000) square parcels on PostgreSQL, ranked against a buy
 *    box with a graded preference, exported through the REST gateway in every format: time to the
 *    last byte and size. Peers in the same run: paging POST /v2/discovery/query to the end with the
 *    same fact columns (what an export reads), and GDAL's ogr2ogr turning the exported GeoJSON into a
 *    Shapefile and a GeoPackage (when gdal-bin is installed).
 * 2. rank() over an in-memory index of BENCH_RANK_ROWS (default 1,000,000) rows: the same spec with
 *    its distance rule all-or-nothing (D14) and graded (D41), the one the peer of the other.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { compileSpec, normaliseDraft } from '@landscreen/buybox-spec';
import { entitleTenant, loadMarket, prepareTemplateDatabase, startTestStack } from '@landscreen/testing';
import { rank, rankSpecOf } from '../services/discovery/src/ranking/rank.js';
import { VintageIndexBuilder } from '../services/discovery/src/ranking/vintage-index.js';

const PARCELS = Number(process.env.BENCH_PARCELS ?? 20_000);
const RANK_ROWS = Number(process.env.BENCH_RANK_ROWS ?? 1_000_000);
const HEADERS = { authorization: 'Bearer dev:bench@landscreen.local', 'x-tenant': 'bench', 'content-type': 'application/json' };
const FORMATS = ['geojson', 'csv', 'kml', 'shapefile', 'gpkg'] as const;

const GRADED = { field: 'nearest_substation_distance_m', op: 'lte', value: 1500, weight: 3, grade: { zero_at: 8000 } };
const spec = (graded: boolean, market = 'bench-export') => ({
  markets: [market],
  must: [{ field: 'acres', op: 'gte', value: 5 }],
  preferred: [graded ? GRADED : { field: 'nearest_substation_distance_m', op: 'lte', value: 8000, weight: 3 }, { field: 'zoning', op: 'eq', value: 'industrial', weight: 1 }],
  verdict_cutoffs: { pursue: 70, monitor: 40 },
});

const square = (x: number, y: number) => ({ type: 'Polygon' as const, coordinates: [[[x, y], [x + 0.004, y], [x + 0.004, y + 0.004], [x, y + 0.004], [x, y]]] });

async function timedBytes(url: string, init: RequestInit): Promise<{ ms: number; bytes: Buffer }> {
  const started = performance.now();
  const response = await fetch(url, init);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${bytes.toString().slice(0, 300)}`);
  return { ms: performance.now() - started, bytes };
}

async function exportsBench(): Promise<void> {
  // The stack runs on a database of its own, cloned from the migrated template the tests use.
  await prepareTemplateDatabase();
  const app = await startTestStack('postgres');
  const work = await mkdtemp(path.join(os.tmpdir(), 'bench-exports-'));
  try {
    await fetch(`${app.url}/v1/me`, { headers: HEADERS });
    const parcels = Array.from({ length: PARCELS }, (_, n) => ({
      geometry: square(-98 + (n % 200) * 0.005, 30 + Math.floor(n / 200) * 0.005),
      properties: { parcel_key: `B${n}`, acres: 5 + (n % 90), zoning: n % 3 ? 'industrial' : 'agricultural', nearest_substation_distance_m: (n * 37.123) % 9000 },
    }));
    const loadStarted = performance.now();
    await loadMarket(app.stack.database.db, 'bench-export', parcels);
    await entitleTenant(app.stack.database.db, 'bench', 'bench-export');
    console.log(`loaded ${PARCELS} parcels in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);
    await fetch(`${app.url}/v1/buyboxes`, { method: 'POST', headers: HEADERS, body: JSON.stringify({ name: 'bench', spec: spec(true) }) });

    // Peer: the Query pages an export reads, with the same fact columns, parsed.
    const fields = ['acres', 'nearest_substation_distance_m', 'zoning'];
    const peerStarted = performance.now();
    let cursor: string | null = null;
    let rows = 0;
    let queryBytes = 0;
    do {
      const page = await timedBytes(`${app.url}/v2/discovery/query`, { method: 'POST', headers: HEADERS, body: JSON.stringify({ buy_box: 'bench', limit: 200, cursor, fields }) });
      const body = JSON.parse(page.bytes.toString());
      rows += body.results.length;
      queryBytes += page.bytes.length;
      cursor = body.next_cursor;
    } while (cursor);
    const peerMs = performance.now() - peerStarted;

    console.log(`\n| what | parcels | time s | MB | parcels/s |\n|---|---:|---:|---:|---:|`);
    console.log(`| peer: POST /v2/discovery/query, 200 a page, to the end | ${rows} | ${(peerMs / 1000).toFixed(2)} | ${(queryBytes / 1e6).toFixed(1)} | ${Math.round(rows / (peerMs / 1000))} |`);
    const files: Record<string, string> = {};
    for (const format of FORMATS) {
      const { ms, bytes } = await timedBytes(`${app.url}/v2/discovery/export?format=${format}`, { method: 'POST', headers: HEADERS, body: JSON.stringify({ buy_box: 'bench', fields }) });
      files[format] = path.join(work, `ranking.${format}`);
      await writeFile(files[format]!, bytes);
      console.log(`| POST /v2/discovery/export?format=${format} | ${PARCELS} | ${(ms / 1000).toFixed(2)} | ${(bytes.length / 1e6).toFixed(1)} | ${Math.round(PARCELS / (ms / 1000))} |`);
    }
    if (existsSync('/usr/bin/ogr2ogr')) {
      for (const [driver, out] of [['ESRI Shapefile', 'peer.shp'], ['GPKG', 'peer.gpkg']] as const) {
        const started = performance.now();
        execFileSync('ogr2ogr', ['-f', driver, path.join(work, out), files.geojson!]);
        const ms = performance.now() - started;
        const size = (await stat(path.join(work, out))).size;
        console.log(`| peer: ogr2ogr GeoJSON → ${driver} (from the exported file) | ${PARCELS} | ${(ms / 1000).toFixed(2)} | ${(size / 1e6).toFixed(1)} | ${Math.round(PARCELS / (ms / 1000))} |`);
      }
    }
  } finally {
    await rm(work, { recursive: true, force: true });
    await app.close();
  }
}

function rankBench(): void {
  const builder = new VintageIndexBuilder('bench');
  for (let row = 0; row < RANK_ROWS; row++) {
    builder.add(`r${row}`, { acres: 5 + (row % 90), zoning: row % 3 ? 'industrial' : 'agricultural', nearest_substation_distance_m: (row * 37.123) % 9000 });
  }
  const index = builder.build();
  const known = new Set(['acres', 'zoning', 'nearest_substation_distance_m']);
  console.log(`\n| rank() over ${RANK_ROWS.toLocaleString('en-US')} rows | p50 ms | distinct scores |\n|---|---:|---:|`);
  for (const graded of [false, true]) {
    const result = normaliseDraft(spec(graded, 'm'), { knownField: (field) => known.has(field) });
    if (!('spec' in result)) throw new Error(JSON.stringify(result.issues));
    const ranked = rankSpecOf(compileSpec(result.spec));
    const times: number[] = [];
    let distinct = 0;
    for (let n = 0; n < 7; n++) {
      const started = performance.now();
      const ranking = rank(index, ranked);
      times.push(performance.now() - started);
      distinct = new Set(ranking.scores).size;
    }
    times.sort((a, b) => a - b);
    console.log(`| ${graded ? 'graded (D41)' : 'peer: all or nothing (D14)'} | ${times[3]!.toFixed(0)} | ${distinct} |`);
  }
}

console.log(`npm run bench:exports — ${new Date().toISOString()} — ${os.cpus().length} cores, Node ${process.version}`);
await exportsBench();
rankBench();
