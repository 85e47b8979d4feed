// A benchmark database holding a demo market of N parcels (record facts only, as the demo's
// parcel file has them) and the demo's layers of every source at full size, loaded with the code
// of `landscreen import layer` — what `landscreen prepare` screens. Built once per size and reused
// (BENCH_REBUILD=1 builds it again): the 1,000,000-parcel one takes minutes.

import os from 'node:os';
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { importLayer, catalogDb } from '@landscreen/catalog-service';
import { openDatabase } from '@landscreen/db';
import { DEMO_LAYERS_MANIFEST, generateDemoParcels, writeDemoLayers, type DemoLayersManifest } from '@landscreen/demo-market';
import { discoveryDb, importVintage } from '@landscreen/discovery-service';
import { toParcelRecord } from '@landscreen/parcel-io';
import { landscreen } from './cli.js';
import { ADMIN_DATABASE_URL, dropDatabase, freshDatabase, throwawayName } from './database.js';

export interface LayeredMarket {
  url: string;
  market: string;
  /** Seconds spent building it in this run (undefined: reused). */
  builtIn?: number;
}

/** Generous pool waits: the machines benchmarks run on are shared, and layers load all at once. */
export const BENCH_DB_ENV = { DB_CONNECT_TIMEOUT_MS: '600000', DB_STATEMENT_TIMEOUT_MS: '86400000', DB_QUERY_TIMEOUT_MS: '86400000' };
export const BENCH_DB_TIMEOUTS = { connectTimeoutMs: 600_000, statementTimeoutMs: 86_400_000, queryTimeoutMs: 86_400_000 };

export async function layeredMarket(parcels: number, options: { market?: string; seed?: number; rebuild?: boolean; log?: (line: string) => void } = {}): Promise<LayeredMarket> {
  const market = options.market ?? 'bench-tx';
  const seed = options.seed ?? 1;
  const log = options.log ?? ((line: string) => console.log(line));
  const name = `landscreen_bench_engine_${parcels}`;
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  if (!options.rebuild && (await isBuilt(url.toString(), market))) return { url: url.toString(), market };

  const started = Date.now();
  log(`building ${name}: ${parcels.toLocaleString('en-US')} demo parcels and the demo layers (once; BENCH_REBUILD=1 rebuilds)`);
  // Built under this run's own name and renamed when whole: a run reusing the cached database
  // never sees half of one, and two runs building it at once do not write into one database.
  const scratch = throwawayName(`${name}_building`);
  const scratchUrl = await freshDatabase(scratch);
  try {
    await buildInto(scratchUrl, { parcels, seed, market, log, started });
  } catch (error) {
    await dropDatabase(scratch);
    throw error;
  }
  await publish(scratch, name, options.rebuild === true);
  return { url: url.toString(), market, builtIn: (Date.now() - started) / 1000 };
}

/** Renames the scratch database to the cached name; a concurrent run that got there first wins. */
async function publish(scratch: string, name: string, replace: boolean): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    if (replace) await admin.query(`drop database if exists ${name} with (force)`);
    try {
      await admin.query(`alter database ${scratch} rename to ${name}`);
    } catch {
      await admin.query(`drop database if exists ${scratch} with (force)`);
    }
  } finally {
    await admin.end();
  }
}

async function buildInto(url: string, { parcels, seed, market, log, started }: { parcels: number; seed: number; market: string; log: (line: string) => void; started: number }): Promise<void> {
  await landscreen(['migrate'], { DATABASE_URL: url, ...BENCH_DB_ENV });
  const database = await openDatabase({ databaseUrl: url, timeouts: BENCH_DB_TIMEOUTS });
  try {
    function* records() {
      let line = 0;
      let batch = [];
      for (const feature of generateDemoParcels({ parcels, seed, market, pointData: false })) {
        batch.push(toParcelRecord({ line: ++line, geometry: feature.geometry, properties: feature.properties }, market));
        if (batch.length === 1000) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    }
    await importVintage(discoveryDb(database.db), { market, name: 'Bench Texas (synthetic)', source: `bench seed=${seed} parcels=${parcels}`, records: records() });
    log(`  parcels loaded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    const dir = path.join(os.tmpdir(), `landscreen-bench-layers-${parcels}-${seed}`);
    await writeDemoLayers(dir, { parcels, seed, market });
    const manifest = JSON.parse(await readFile(path.join(dir, DEMO_LAYERS_MANIFEST), 'utf8')) as DemoLayersManifest;
    for (const layer of manifest.layers) {
      await importLayer(catalogDb(database.db), { source: layer.source, file: path.join(dir, layer.file), format: layer.format, name: `bench ${market}` });
    }
    log(`  ${manifest.layers.length} layers loaded; built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await database.close();
  }
}

async function isBuilt(url: string, market: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query(
      `select (select count(*)::int from discovery.markets m join discovery.vintages v on v.id = m.current_vintage_id where m.slug = $1) as markets,
              (select count(*)::int from catalog.layer_versions where name like 'bench %') as layers`,
      [market],
    );
    return rows[0].markets === 1 && rows[0].layers > 0;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
