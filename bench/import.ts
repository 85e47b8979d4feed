/**
 * npm run bench:import — importing a layer of a state's size, beside GDAL doing the same load.
 *
 * Vector section: BENCH_FEATURES (default 2,000,000) small wetland-like polygons (12-gons, 20-60 m
 * across, over Texas) are generated as GeoJSON lines and written by GDAL (`ogr2ogr`) to a
 * GeoPackage in NAD83 / Conus Albers (EPSG:5070), as USFWS ships NWI. Then, in the same run, on
 * the same PostgreSQL server:
 *   - `landscreen import layer --source usfws_nwi` of that file into a fresh database (the CLI as
 *     an operator runs it: it reads, reprojects to WGS84, validates, and stores a layer version);
 *   - `ogr2ogr -f PostgreSQL` of the same file into a fresh PostGIS database (GDAL's defaults:
 *     COPY, a GiST index, no reprojection), skipped with a message where PostGIS or gdal-bin is absent.
 * Each is timed with its peak RSS (/usr/bin/time), and the CPU of the PostgreSQL backends serving
 * it (their /proc counters, sampled while it runs): ogr2ogr leaves the parsing of every WKB and
 * the index to the server, so its own CPU alone would flatter it. The ratio is GDAL's over ours.
 *
 * Raster section: bench/import-dem.ts in a process of its own (a 4-tile COG DEM imported, then
 * DEM_LOOKUPS elevation lookups over it; DEM_TILE_SIZE), skipped with BENCH_SECTIONS=vector.
 * BENCH_DIR keeps the generated files between runs (default: a folder in the OS temp dir);
 * BENCH_READERS=1,2 imports once per LAYER_IMPORT_READERS value (the ratio is the last one's).
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { backendCpuMeter } from './lib/backend-cpu.js';
import { dropDatabase, freshDatabase, throwawayName, ADMIN_DATABASE_URL } from './lib/database.js';

/** This run's own databases (BENCH_DB_SUFFIX, else the pid), dropped when it is done. */
const OURS = throwawayName('bench_import_landscreen');
const POSTGIS = throwawayName('bench_import_postgis');
import { BIN, NODE_FLAGS } from './lib/processes.js';

const features = Number(process.env.BENCH_FEATURES ?? 2_000_000);
const dir = process.env.BENCH_DIR ?? path.join(os.tmpdir(), `landscreen-bench-import-${features}`);
const run = promisify(execFile);

interface Measured {
  seconds: number;
  /** User and system CPU seconds: comparable across runs when the machine is shared. */
  cpuSeconds: number;
  peakRssMiB: number;
  /** CPU seconds of the PostgreSQL backends of the command's database while it ran. */
  serverCpuSeconds: number;
  output: string;
}

/** Runs a command under /usr/bin/time for its wall time, CPU time and peak RSS. */
async function measured(database: string, command: string, args: string[], env: Record<string, string> = {}): Promise<Measured> {
  const server = await backendCpuMeter(database);
  const child = spawn('/usr/bin/time', ['-f', 'BENCH_TIME %e %M %U %S', command, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  const serverCpuSeconds = await server.stop();
  const timing = /BENCH_TIME ([\d.]+) (\d+) ([\d.]+) ([\d.]+)/.exec(output);
  if (code !== 0 || timing === null) throw new Error(`${command} ${args.join(' ')} failed (${code}):\n${output.slice(-2000)}`);
  return { seconds: Number(timing[1]), cpuSeconds: Number(timing[3]) + Number(timing[4]), peakRssMiB: Number(timing[2]) / 1024, serverCpuSeconds, output };
}

async function commandWorks(command: string, args: string[]): Promise<boolean> {
  try {
    await run(command, args);
    return true;
  } catch {
    return false;
  }
}

/** Wetland-like 12-gons over Texas, one GeoJSON feature per line, streamed to disk. */
async function writePolygons(file: string, count: number): Promise<void> {
  const out = createWriteStream(file);
  const types = ['Freshwater Emergent Wetland', 'Freshwater Forested/Shrub Wetland', 'Freshwater Pond', 'Lake', 'Riverine', 'Estuarine and Marine Wetland'];
  const codes = ['PEM1C', 'PFO1A', 'PUBHh', 'L1UBH', 'R2UBH', 'E2EM1P'];
  let seed = 42;
  const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let i = 0; i < count; i++) {
    const lon = -106 + next() * 12;
    const lat = 26 + next() * 10;
    const radius = (10 + next() * 20) / 111_320;
    const ring: string[] = [];
    for (let k = 0; k <= 12; k++) {
      const angle = ((k % 12) / 12) * 2 * Math.PI;
      ring.push(`[${(lon + (radius * Math.cos(angle)) / Math.cos((lat * Math.PI) / 180)).toFixed(7)},${(lat + radius * Math.sin(angle)).toFixed(7)}]`);
    }
    const kind = i % types.length;
    const line = `{"type":"Feature","properties":{"WETLAND_TYPE":"${types[kind]}","ATTRIBUTE":"${codes[kind]}","ACRES":${(next() * 5).toFixed(4)}},"geometry":{"type":"Polygon","coordinates":[[${ring.join(',')}]]}}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

async function vectorSection(): Promise<void> {
  console.log(`\n## Vector: ${features.toLocaleString('en-US')} polygons, GeoPackage in EPSG:5070 (NWI's CRS)`);
  if (!(await commandWorks('ogr2ogr', ['--version']))) {
    console.log('ogr2ogr (gdal-bin) is not installed: it writes the input file; skipped');
    return;
  }
  await mkdir(dir, { recursive: true });
  const gpkg = path.join(dir, 'wetlands.gpkg');
  if (!existsSync(gpkg)) {
    const lines = path.join(dir, 'wetlands.geojsonl');
    console.log(`writing ${gpkg} (once; BENCH_DIR keeps it) …`);
    await writePolygons(lines, features);
    await run('ogr2ogr', ['-f', 'GPKG', '-t_srs', 'EPSG:5070', '-nln', 'wetlands', gpkg, lines], { maxBuffer: 2 ** 26 });
    await rm(lines);
  }
  const size = (await stat(gpkg)).size;
  console.log(`input: ${(size / 2 ** 20).toFixed(0)} MiB`);

  // BENCH_READERS=1,2 runs the import once per LAYER_IMPORT_READERS value (default: once, unset).
  const readerCounts = process.env.BENCH_READERS?.split(',') ?? [undefined];
  let landscreen: Measured | undefined;
  for (const readers of readerCounts) {
    const ours = await freshDatabase(OURS);
    await run(process.execPath, [...NODE_FLAGS, BIN, 'migrate'], { env: { ...process.env, DATABASE_URL: ours, LOG_LEVEL: 'warn' } });
    landscreen = await measured(
      OURS,
      process.execPath,
      [...NODE_FLAGS, BIN, 'import', 'layer', '--source', 'usfws_nwi', '--file', gpkg, '--map', 'WETLAND_TYPE=wetland_type,ATTRIBUTE=wetland_subtype'],
      { DATABASE_URL: ours, LOG_LEVEL: 'warn', ...(readers === undefined ? {} : { LAYER_IMPORT_READERS: readers }) },
    );
    const imported = /with ([\d,]+) features is now current/.exec(landscreen.output)?.[1]?.replaceAll(',', '');
    if (Number(imported) !== features) throw new Error(`the import loaded ${imported} features, not ${features}:\n${landscreen.output.slice(-1000)}`);
    const which = readers === undefined ? '' : `, LAYER_IMPORT_READERS=${readers}`;
    report(`landscreen import layer (GeoPackage → layer version, reprojected to WGS84${which})`, landscreen);
  }
  if (landscreen === undefined) return;

  const gdal = await ogr2ogrIntoPostgis(gpkg);
  if (gdal !== null) {
    report('ogr2ogr -f PostgreSQL (GeoPackage → PostGIS table, native CRS, GiST index)', gdal);
    const total = (m: Measured) => m.cpuSeconds + m.serverCpuSeconds;
    console.log(
      `ratio: ogr2ogr's / landscreen's = ${(gdal.seconds / landscreen.seconds).toFixed(2)} wall, ` +
        `${(total(gdal) / total(landscreen)).toFixed(2)} CPU of client + server, ${(gdal.cpuSeconds / landscreen.cpuSeconds).toFixed(2)} CPU of the client alone ` +
        '(≥ 1: the import is at least as fast)',
    );
  }
}

async function ogr2ogrIntoPostgis(gpkg: string): Promise<Measured | null> {
  const url = await freshDatabase(POSTGIS);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('create extension if not exists postgis');
  } catch (error) {
    console.log(`PostGIS is not available on ${new URL(ADMIN_DATABASE_URL).host} (${(error as Error).message}): ogr2ogr into PostGIS skipped`);
    return null;
  } finally {
    await client.end();
  }
  const { hostname, port, username } = new URL(url);
  const connection = `PG:host=${hostname} port=${port || 5432} user=${decodeURIComponent(username)} dbname=${POSTGIS}`;
  return measured(POSTGIS, 'ogr2ogr', ['-f', 'PostgreSQL', connection, gpkg, '-nln', 'nwi', '-overwrite']);
}

function report(label: string, result: Measured): void {
  console.log(
    `${label}: ${result.seconds.toFixed(1)} s (${result.cpuSeconds.toFixed(1)} CPU s, PostgreSQL backends ${result.serverCpuSeconds.toFixed(1)} CPU s), ` +
      `${Math.round(features / result.seconds).toLocaleString('en-US')} features/s, peak RSS ${result.peakRssMiB.toFixed(0)} MiB`,
  );
}

/** The DEM benchmark, as `npm run bench:import-dem` runs it, its output inline. */
async function rasterSection(): Promise<void> {
  console.log('\n## Raster: a 4-tile COG DEM (bench/import-dem.ts)');
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@landscreen/source', new URL('./import-dem.ts', import.meta.url).pathname], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`bench/import-dem.ts failed (${code})`);
}

const SECTIONS: Record<string, () => Promise<void>> = { vector: vectorSection, raster: rasterSection };
const chosen = (process.env.BENCH_SECTIONS ?? Object.keys(SECTIONS).join(',')).split(',');

console.log(`bench:import — ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`);
try {
  for (const name of chosen) await SECTIONS[name]!();
} finally {
  // Named for this run, so nothing would drop them later.
  await dropDatabase(OURS);
  await dropDatabase(POSTGIS);
}
