/**
 * npm run bench:import-dem — a DEM as 3DEP ships it, imported and answered, on PostgreSQL:
 *   1. four Cloud-Optimized GeoTIFF tiles written by gdal_translate (DEFLATE, floating-point
 *      predictor, EPSG:4269; DEM_TILE_SIZE cells a side, default 3,612 as 3DEP's 1 arc-second
 *      tiles) imported as one version by `landscreen import layer --file <folder>` in a process of
 *      its own: cells/s and its peak RSS, beside two peers in the same run — gdal_translate
 *      decoding the same tiles to raw float32 (GDAL's own read of every cell) and geotiff.js
 *      reading them window by window without storing anything (the decoding share of the import);
 *   2. DEM_LOOKUPS (default 10,000) elevation lookups at random points through the catalog's
 *      engine (blocks loaded on demand into its cache, batches of 1,000 as fetch/batch takes
 *      them; cold, then again warm): lookups/s, beside gdallocationinfo -valonly -wgs84 over the
 *      same points (one process reading them from stdin, nearest cell from the COG tiles).
 * Environment: DEM_TILE_SIZE, DEM_LOOKUPS, TEST_DATABASE_URL.
 */
import { execFile, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { catalogDb, LayerCache } from '@landscreen/catalog-service';
import { openDatabase } from '@landscreen/db';
import { openGrid } from '@landscreen/layer-io';
import { elevationModel, seededRandom } from '@landscreen/layer-io/testing/dem-fixtures';
import { freshDatabase } from './lib/database.js';
import { BIN, NODE_FLAGS } from './lib/processes.js';

const run = promisify(execFile);
const SIZE = Number(process.env.DEM_TILE_SIZE ?? 3612);
const LOOKUPS = Number(process.env.DEM_LOOKUPS ?? 10_000);
const BATCH = 1_000;
/** 1 arc-second cells from 98°W 31°N, as a 3DEP 1 arc-second tile (its cells are 1/3600°). */
const CELL = 1 / 3600;
const WEST = -98;
const NORTH = 31;
const SIDE = 2 * SIZE;
const CELLS = SIDE * SIDE;

const dir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-bench-dem-'));
const tiles = path.join(dir, 'tiles');
mkdirSync(tiles);
const rows: string[][] = [['measure', 'figure', 'peer', 'peer figure']];
const fmt = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Runs a command under /usr/bin/time: wall seconds and peak RSS in MB. */
async function timed(command: string, args: string[], env: NodeJS.ProcessEnv = process.env, input?: string): Promise<{ seconds: number; rssMb: number; stdout: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', '%M', command, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${stderr}`));
      const kb = Number(stderr.trim().split('\n').at(-1));
      resolve({ seconds: (performance.now() - started) / 1000, rssMb: kb / 1024, stdout });
    });
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}

/** The mosaic as raw float32 rows (ESRI .bil with its .hdr), one row in memory at a time. */
async function writeMosaic(file: string): Promise<void> {
  writeFileSync(
    file.replace(/\.bil$/, '.hdr'),
    [`nrows ${SIDE}`, `ncols ${SIDE}`, 'nbands 1', 'nbits 32', 'pixeltype float', 'byteorder I', 'layout bil', `ulxmap ${WEST + CELL / 2}`, `ulymap ${NORTH - CELL / 2}`, `xdim ${CELL}`, `ydim ${CELL}`, ''].join('\n'),
  );
  const out = createWriteStream(file);
  const row = new Float32Array(SIDE);
  for (let r = 0; r < SIDE; r++) {
    const lat = NORTH - (r + 0.5) * CELL;
    for (let c = 0; c < SIDE; c++) row[c] = elevationModel(WEST + (c + 0.5) * CELL, lat);
    if (!out.write(Buffer.from(row.buffer.slice(0)))) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise((resolve) => out.end(resolve));
}

async function main(): Promise<void> {
  console.log(`bench:import-dem: 4 tiles of ${fmt(SIZE)} x ${fmt(SIZE)} cells (${fmt(CELLS)} cells, ${fmt((CELLS * 4) / 2 ** 20)} MB of float32), ${fmt(LOOKUPS)} lookups`);
  const raw = path.join(dir, 'mosaic.bil');
  await writeMosaic(raw);
  for (const [name, col, row] of [['n31w098', 0, 0], ['n31w097', 1, 0], ['n30w098', 0, 1], ['n30w097', 1, 1]] as const) {
    await run('gdal_translate', ['-q', '-a_srs', 'EPSG:4269', '-of', 'COG', '-co', 'COMPRESS=DEFLATE', '-co', 'PREDICTOR=3', '-srcwin', String(col * SIZE), String(row * SIZE), String(SIZE), String(SIZE), raw, path.join(tiles, `USGS_1_${name}.tif`)]);
  }
  rmSync(raw);
  const vrt = path.join(dir, 'mosaic.vrt');
  await run('gdalbuildvrt', ['-q', vrt, ...['n31w098', 'n31w097', 'n30w098', 'n30w097'].map((name) => path.join(tiles, `USGS_1_${name}.tif`))]);
  const { stdout: sizes } = await run('du', ['-sb', tiles]);
  console.log(`tiles written by gdal_translate: ${fmt(Number(sizes.split('\t')[0]) / 2 ** 20, 1)} MB of COG`);

  // 1. The import, in a process of its own, and its peers.
  const databaseUrl = await freshDatabase('landscreen_bench_dem');
  const env = { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', DATA_DIR: dir };
  await run(process.execPath, [...NODE_FLAGS, BIN, 'migrate'], { env });
  const baseline = await timed(process.execPath, [...NODE_FLAGS, BIN, 'layers'], env);
  const imported = await timed(process.execPath, [...NODE_FLAGS, BIN, 'import', 'layer', '--source', 'usgs_3dep', '--file', tiles], env);
  // The import proper, as its last progress line times it (the process also starts, and checks migrations).
  const progress = /100% [\d,]+ cells, ([\d,]+)\/s, ([\d.]+) s/.exec(imported.stdout);
  const gdalRead = await timed('gdal_translate', ['-q', '-of', 'ENVI', '-ot', 'Float32', vrt, path.join(dir, 'decoded.raw')]);
  rmSync(path.join(dir, 'decoded.raw'));
  let decodeSeconds = 0;
  for (const name of ['n31w098', 'n31w097', 'n30w098', 'n30w097']) {
    const started = performance.now();
    const grid = await openGrid(path.join(tiles, `USGS_1_${name}.tif`));
    for await (const window of grid.windows({ alignTo: 256 })) if (window.values.length === 0) throw new Error('empty window');
    await grid.close();
    decodeSeconds += (performance.now() - started) / 1000;
  }
  rows.push(
    [
      'landscreen import layer (4 COG tiles, PostgreSQL)',
      `${progress?.[1] ?? '?'} cells/s (${progress?.[2] ?? '?'} s; process ${fmt(imported.seconds, 1)} s), peak RSS ${fmt(imported.rssMb)} MB`,
      'gdal_translate to raw float32',
      `${fmt(CELLS / gdalRead.seconds)} cells/s, ${fmt(gdalRead.seconds, 1)} s, peak RSS ${fmt(gdalRead.rssMb)} MB`,
    ],
    ['landscreen layers (the CLI at rest)', `peak RSS ${fmt(baseline.rssMb)} MB`, 'geotiff.js windows, nothing stored', `${fmt(CELLS / decodeSeconds)} cells/s, ${fmt(decodeSeconds, 1)} s`],
  );

  // 2. Lookups through the engine, beside gdallocationinfo over the same points.
  const random = seededRandom(2026);
  const points = Array.from({ length: LOOKUPS }, () => ({ lon: WEST + random() * SIDE * CELL, lat: NORTH - random() * SIDE * CELL }));
  const database = await openDatabase({ databaseUrl });
  const cache = new LayerCache(catalogDb(database.db));
  const { engine } = await cache.current();
  const how = engine.layer('usgs_3dep')?.kind === 'grid' && !(engine.layer('usgs_3dep') as { resident: boolean }).resident ? 'blocks on demand' : 'held whole';
  const lookup = async () => {
    const started = performance.now();
    const values: (number | null)[] = [];
    for (let from = 0; from < points.length; from += BATCH) {
      const answer = await engine.evaluateLoaded(points.slice(from, from + BATCH), ['elevation']);
      for (let n = 0; n < answer.size; n++) values.push(answer.value(n, 0) as number | null);
    }
    return { seconds: (performance.now() - started) / 1000, values };
  };
  const cold = await lookup();
  const warm = await lookup();
  await database.close();
  const located = await timed('gdallocationinfo', ['-valonly', '-wgs84', vrt], process.env, points.map((point) => `${point.lon} ${point.lat}`).join('\n') + '\n');
  const gdalValues = located.stdout.trim().split('\n').map(Number);
  const differences = cold.values.map((value, n) => Math.abs((value ?? NaN) - gdalValues[n])).sort((a, b) => a - b);
  rows.push(
    [`engine elevation, cold (${how})`, `${fmt(LOOKUPS / cold.seconds)} lookups/s`, 'gdallocationinfo -valonly -wgs84 (stdin)', `${fmt(LOOKUPS / located.seconds)} lookups/s, peak RSS ${fmt(located.rssMb)} MB`],
    [`engine elevation, warm (block cache: ${fmt(cache.gridCache.heldBytes / 2 ** 20)} MB held)`, `${fmt(LOOKUPS / warm.seconds)} lookups/s`, '', ''],
    ['engine (bilinear) vs GDAL (nearest cell): median |difference|', `${fmt(differences[differences.length >> 1], 2)} m`, '', ''],
  );

  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd());
}

try {
  await main();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
