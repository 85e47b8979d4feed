// `landscreen prepare --workers` on PostgreSQL and real NATS JetStream, with two prepare workers
// as processes of their own (`landscreen serve --prepare-worker`), one SIGKILLed while it holds a
// chunk: its chunk is redelivered and written by the other, and the vintage comes out as the
// prepare in one process makes it — every parcel once, current once.

import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogDb, importLayer } from '@landscreen/catalog-service';
import { discoveryDb, importVintage } from '@landscreen/discovery-service';
import { toParcelRecord, type GeoJSONGeometry } from '@landscreen/parcel-io';
import { prepareMarket } from '@landscreen/prepare';
import { createTestPostgres, type TestDatabase } from '@landscreen/testing';
import { waitFor } from '../../packages/events/src/test-wait.js';
import { vintageContents, withBaseNamed } from '../../packages/prepare/src/vintage-contents.test-helper.js';
import { runLandscreen, spawnLandscreen } from '../support/cli-process.js';
import { startPrivateNats, type PrivateNats } from './relay-harness.js';

const FIELDS = ['nearest_substation_distance_m', 'substations_within_radius_count', 'intersects_wetland', 'wetland_type', 'nearest_wetland_distance_m', 'wetland_acres_on_parcel'];
const PARCELS = 3_000;
const CHUNK_ROWS = 250;

const square = (lon: number, lat: number, half: number): GeoJSONGeometry => ({
  type: 'Polygon',
  coordinates: [[[lon - half, lat - half], [lon + half, lat - half], [lon + half, lat + half], [lon - half, lat + half], [lon - half, lat - half]]],
});

/** A worker process and the JSON lines it logged. */
interface WorkerProcess {
  child: ChildProcess;
  lines: Record<string, unknown>[];
  ready: Promise<void>;
}

function startWorker(env: Record<string, string>): WorkerProcess {
  const child = spawnLandscreen(['serve', '--prepare-worker'], env);
  const lines: Record<string, unknown>[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk) => {
      buffer += chunk;
      const complete = buffer.split('\n');
      buffer = complete.pop()!;
      for (const line of complete) {
        try {
          lines.push(JSON.parse(line));
        } catch {
          continue;
        }
        if (line.includes('prepare worker is up')) resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`prepare worker exited with ${code}: ${JSON.stringify(lines)}`)));
  });
  ready.catch(() => {});
  return { child, lines, ready };
}

const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

describe('landscreen prepare --workers on PostgreSQL and NATS with two worker processes', () => {
  let nats: PrivateNats;
  let database: TestDatabase;
  const workers: WorkerProcess[] = [];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-prepare-workers-e2e-'));

  beforeAll(async () => {
    nats = await startPrivateNats();
    database = await createTestPostgres();
    const substations = [[-97, 35.1], [-96.95, 35.05], [-96.9, 35.15]].map(([x, y]) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [x, y] }, properties: { max_voltage_kv: 138 } }));
    const wetlands = [{ type: 'Feature', geometry: square(-97, 35.1, 0.05), properties: { wetland_type: 'PEM' } }];
    for (const [source, features] of [['hifld_substations', substations], ['usfws_nwi', wetlands]] as const) {
      const file = path.join(dir, `${source}.geojson`);
      writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }));
      await importLayer(catalogDb(database.db), { source, file });
    }
    // The same parcels twice: one market prepared over the workers, one in this process.
    for (const slug of ['spread', 'one']) {
      const records = Array.from({ length: PARCELS }, (_, i) =>
        toParcelRecord(
          { line: i + 1, geometry: i % 17 === 0 ? null : square(-97.1 + ((i * 37) % 200) / 1000, 35 + ((i * 53) % 200) / 1000, 0.001), properties: { parcel_key: `p-${i}`, owner_name: `o${i % 40}` } },
          slug,
        ),
      );
      await importVintage(discoveryDb(database.db), { market: slug, source: 'test', records, chunkRows: CHUNK_ROWS });
    }
  });
  afterAll(async () => {
    for (const { child } of workers) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(workers.map(({ child }) => exited(child)));
    await database?.close();
    await nats?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes every chunk once though a worker is killed holding one, and makes the vintage current once', async () => {
    const env = { DATABASE_URL: database.url, NATS_URL: nats.url, BUS_SCOPE: 'auto', PREPARE_LEASE_SECONDS: '3', LOG_LEVEL: 'info', DATA_DIR: dir };
    const [first, second] = [startWorker(env), startWorker(env)];
    workers.push(first, second);
    await Promise.all([first.ready, second.ready]);
    const db = database.db as Kysely<unknown>;

    // Both workers are held at the last step of a chunk (its done row), their chunk's rows written
    // in their open transactions: the first is killed there, mid-chunk for certain.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const lock = database.db.connection().execute(async (connection) => {
      await sql`begin`.execute(connection);
      await sql`lock table discovery.prepare_chunks_done in share mode`.execute(connection);
      locked();
      await released;
      await sql`commit`.execute(connection);
    });
    await holding;

    const cli = spawnLandscreen(['prepare', '--market', 'spread', '--fields', FIELDS.join(','), '--workers'], { ...env, LOG_LEVEL: 'warn' });
    let stdout = '';
    cli.stdout!.on('data', (chunk) => (stdout += chunk));
    cli.stderr!.on('data', (chunk) => (stdout += chunk));
    const cliExit = new Promise<number | null>((resolve) => cli.once('exit', (code) => resolve(code)));

    await waitFor(async () => {
      const { rows } = await sql<{ waiting: number }>`
        select count(*)::int as waiting from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and query ilike '%insert into %prepare_chunks_done%'`.execute(db);
      return rows[0]!.waiting === 2;
    }, 'both workers waiting to write their done row');
    const started = first.lines.filter((line) => line.msg === 'prepare chunk started');
    const killedChunk = started.at(-1)!.chunk as number;
    first.child.kill('SIGKILL');
    await exited(first.child);
    release();
    await lock;

    expect(await cliExit).toBe(0);
    const chunks = PARCELS / CHUNK_ROWS;
    expect(stdout).toContain(`screening ${PARCELS.toLocaleString('en-US')} parcels of vintage `);
    expect(stdout).toContain(`in ${chunks} chunks on prepare workers`);
    expect(stdout).toMatch(new RegExp(`preparing spread \\[#{30}\\] 100% ${chunks} chunks`));
    const [, vintageId] = /vintage ([0-9a-f-]{36}) with 3,000 prepared parcels is now current/.exec(stdout)!;

    // The killed worker's chunk was written by the other, after a redelivery; never by the first.
    const settled = (worker: WorkerProcess) => worker.lines.filter((line) => line.msg === 'prepare chunk settled' && line.chunk === killedChunk);
    expect(settled(first)).toEqual([]);
    expect(settled(second).map((line) => line.outcome)).toContain('written');
    expect(second.lines.some((line) => line.msg === 'prepare chunk started' && line.chunk === killedChunk && (line.delivery as number) >= 2)).toBe(true);

    const { rows } = await sql<{ rows: number; keys: number; chunks: number; current: string; ready: number; jobs: number }>`
      select (select count(*)::int from discovery.parcels where vintage_id = ${vintageId}) as rows,
             (select count(distinct parcel_key)::int from discovery.parcels where vintage_id = ${vintageId}) as keys,
             (select count(distinct chunk)::int from discovery.vintage_columns where vintage_id = ${vintageId}) as chunks,
             (select current_vintage_id::text from discovery.markets where slug = 'spread') as current,
             (select count(*)::int from discovery.vintages v join discovery.markets m on m.id = v.market_id where m.slug = 'spread' and v.status = 'ready') as ready,
             (select count(*)::int from discovery.prepare_jobs) as jobs`.execute(db);
    expect(rows[0]).toEqual({ rows: PARCELS, keys: PARCELS, chunks, current: vintageId, ready: 2, jobs: 0 });

    const reference = await prepareMarket(database.db, { market: 'one', fields: FIELDS });
    const { rows: bases } = await sql<{ base: string }>`
      select v.id::text as base from discovery.vintages v join discovery.markets m on m.id = v.market_id
      where m.slug = 'spread' and v.id <> ${vintageId}`.execute(db);
    expect(withBaseNamed(await vintageContents(database.db, vintageId), bases[0]!.base)).toEqual(withBaseNamed(await vintageContents(database.db, reference.vintageId), reference.baseVintageId));
  });

  it('says what --workers needs without NATS', async () => {
    const run = await runLandscreen(['prepare', '--market', 'spread', '--workers'], { DATABASE_URL: database.url, NATS_URL: '', LOG_LEVEL: 'silent', DATA_DIR: dir });
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('--workers needs NATS_URL and DATABASE_URL');
  });
});
