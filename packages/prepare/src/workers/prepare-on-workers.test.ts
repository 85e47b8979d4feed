// A prepare spread over workers (PostgreSQL, the bus in process): however the base is cut into
// chunks, however many workers take them, whichever of them fails mid-chunk (its transaction
// rolled back, its chunk redelivered) and whether the base was prepared before, the vintage stores the same facts and provenance as the
// prepare in one process — each parcel once, current once every chunk is in.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogDb, importLayer } from '@landscreen/catalog-service';
import { discoveryDb, importVintage } from '@landscreen/discovery-service';
import { createMemoryBus, type EventBus } from '@landscreen/events';
import { toParcelRecord, type GeoJSONGeometry } from '@landscreen/parcel-io';
import { createLogger } from '@landscreen/rpc';
import { createTestPostgres, type TestDatabase } from '@landscreen/testing';
import { loadStoredParcelIndex } from '../../../../services/discovery/src/locate/parcel-index-store.js';
import { prepareMarket } from '../prepare-market.js';
import { vintageContents, withBaseNamed } from '../vintage-contents.test-helper.js';
import { prepareOnWorkers } from './prepare-on-workers.js';
import { startPrepareWorker, type PrepareWorker } from './prepare-worker.js';

const FIELDS = ['nearest_substation_distance_m', 'substations_within_radius_count', 'intersects_wetland', 'wetland_type', 'wetland_acres_on_parcel'];

const square = (lon: number, lat: number, half: number): GeoJSONGeometry => ({
  type: 'Polygon',
  coordinates: [[[lon - half, lat - half], [lon + half, lat - half], [lon + half, lat + half], [lon - half, lat + half], [lon - half, lat - half]]],
});

const market = fc.array(
  fc.record({
    lon: fc.double({ min: -97.1, max: -96.9, noNaN: true }),
    lat: fc.double({ min: 35, max: 35.2, noNaN: true }),
    located: fc.oneof({ arbitrary: fc.constant(true), weight: 4 }, { arbitrary: fc.constant(false), weight: 1 }),
    crop: fc.oneof(fc.constant(undefined), fc.integer({ min: 0, max: 5 }), fc.constantFrom('a', 'b')),
  }),
  { minLength: 1, maxLength: 40 },
);

describe('prepare over workers (postgres)', () => {
  let database: TestDatabase;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-prepare-workers-'));

  beforeAll(async () => {
    database = await createTestPostgres();
    const substations = [[-97, 35.1], [-96.95, 35.05]].map(([x, y]) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [x, y] }, properties: { max_voltage_kv: 138 } }));
    const wetlands = [{ type: 'Feature', geometry: square(-97, 35.1, 0.05), properties: { wetland_type: 'PEM' } }];
    for (const [source, features] of [['hifld_substations', substations], ['usfws_nwi', wetlands]] as const) {
      const file = path.join(dir, `${source}.geojson`);
      writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features }));
      await importLayer(catalogDb(database.db), { source, file });
    }
  });
  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const importMarket = async (slug: string, parcels: { lon: number; lat: number; located: boolean; crop: unknown }[], chunkRows?: number) => {
    const records = parcels.map((p, i) =>
      toParcelRecord({ line: i + 1, geometry: p.located ? square(p.lon, p.lat, 0.001) : null, properties: { parcel_key: `p${(i * 7919) % 1000}-${i}`, crop: p.crop, owner_name: `o${i}` } }, slug),
    );
    return importVintage(discoveryDb(database.db), { market: slug, source: 'test', records, chunkRows });
  };

  /** `count` workers on one in-process bus; `failAt` makes one of them throw on that page it screens, once. */
  const startWorkers = async (bus: EventBus, count: number, failAt: number | null) => {
    let pages = 0;
    const workers: PrepareWorker[] = [];
    for (let n = 0; n < count; n++) {
      workers.push(
        await startPrepareWorker({
          db: database.db,
          bus,
          logger: createLogger('silent'),
          ackWaitMs: 1_000,
          workerId: `worker-${n}`,
          layerCache: { gridCacheBytes: 16 * 2 ** 20 },
          faults: n === 0 && failAt !== null ? async () => {
            if (++pages === failAt) throw new Error('worker died mid-chunk');
          } : undefined,
        }),
      );
    }
    return workers;
  };

  it('stores what the prepare in one process stores, each parcel once, however the chunks are cut and taken', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(market, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 3 }), fc.option(fc.integer({ min: 1, max: 4 })), fc.boolean(), async (parcels, chunkRows, workerCount, failAt, again) => {
        run++;
        // Again: the base is a prepared vintage already, whose facts of some fields are redone.
        const before = async (slug: string) => {
          if (again) await prepareMarket(database.db, { market: slug, fields: [FIELDS[0]!, FIELDS[3]!], chunkRows });
        };
        await importMarket(`one-${run}`, parcels);
        await before(`one-${run}`);
        const whole = await prepareMarket(database.db, { market: `one-${run}`, fields: FIELDS });
        const imported = await importMarket(`spread-${run}`, parcels, chunkRows);
        await before(`spread-${run}`);
        const bus = createMemoryBus();
        const workers = await startWorkers(bus, workerCount, failAt);
        const progress: number[] = [];
        try {
          const spread = await prepareOnWorkers(database.db, { market: `spread-${run}`, fields: FIELDS, bus, pollMs: 20, onProgress: ({ chunks }) => progress.push(chunks) });
          expect(spread.parcels).toBe(whole.parcels);
          expect(progress.at(-1)).toBe(Math.ceil(parcels.length / chunkRows));
          const [a, b] = [await vintageContents(database.db, whole.vintageId), await vintageContents(database.db, spread.vintageId)];
          expect(withBaseNamed(b, spread.baseVintageId)).toEqual(withBaseNamed(a, whole.baseVintageId));

          const { rows } = await sql<{ rows: number; keys: number; current: string; jobs: number; ready: number }>`
            select (select count(*)::int from discovery.parcels where vintage_id = ${spread.vintageId}) as rows,
                   (select count(distinct parcel_key)::int from discovery.parcels where vintage_id = ${spread.vintageId}) as keys,
                   (select current_vintage_id::text from discovery.markets where slug = ${`spread-${run}`}) as current,
                   (select count(*)::int from discovery.prepare_jobs) as jobs,
                   (select count(*)::int from discovery.vintages where market_id = ${imported.marketId} and status = 'ready') as ready`.execute(database.db);
          expect(rows[0]).toEqual({ rows: parcels.length, keys: parcels.length, current: spread.vintageId, jobs: 0, ready: again ? 3 : 2 });
          // The parcel index is the base's, under the new vintage's name.
          const base = await loadStoredParcelIndex(discoveryDb(database.db), spread.baseVintageId);
          const copied = await loadStoredParcelIndex(discoveryDb(database.db), spread.vintageId);
          expect(copied?.keys).toEqual(base?.keys);
        } finally {
          await Promise.all(workers.map((worker) => worker.stop()));
          await bus.close();
        }
      }),
      { numRuns: 6 },
    );
  });

  it('abandons the vintage when stopped: the base stays current and nothing of the new vintage is left', async () => {
    const imported = await importMarket('stopped', [{ lon: -97, lat: 35.1, located: true, crop: 1 }]);
    const bus = createMemoryBus();
    const stop = new AbortController();
    // No worker runs: the prepare waits until it is stopped.
    const prepared = prepareOnWorkers(database.db, { market: 'stopped', fields: FIELDS, bus, pollMs: 20, signal: stop.signal, onProgress: () => stop.abort(new Error('stopped')) });
    await expect(prepared).rejects.toThrow('stopped');
    const { rows } = await sql<{ current: string; vintages: number; jobs: number }>`
      select (select current_vintage_id::text from discovery.markets where slug = 'stopped') as current,
             (select count(*)::int from discovery.vintages where market_id = ${imported.marketId}) as vintages,
             (select count(*)::int from discovery.prepare_jobs) as jobs`.execute(database.db);
    expect(rows[0]).toEqual({ current: imported.vintageId, vintages: 1, jobs: 0 });
    await bus.close();
  });

  it('fails rather than mix layer versions: a layer imported while the chunks are screened gives the prepare up, the base current', async () => {
    const imported = await importMarket('relayered', [{ lon: -97, lat: 35.1, located: true, crop: 1 }, { lon: -96.95, lat: 35.05, located: true, crop: 2 }], 1);
    const bus = createMemoryBus();
    let pages = 0;
    const file = path.join(dir, 'substations-again.geojson');
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [-97.05, 35] }, properties: { max_voltage_kv: 345 } }] }));
    const worker = await startPrepareWorker({
      db: database.db,
      bus,
      logger: createLogger('silent'),
      ackWaitMs: 1_000,
      workerId: 'relayering',
      layerCache: { gridCacheBytes: 16 * 2 ** 20 },
      // While the first chunk is screened, a new version of a layer becomes current.
      faults: async () => {
        if (++pages === 1) await importLayer(catalogDb(database.db), { source: 'hifld_substations', file });
      },
    });
    try {
      await expect(prepareOnWorkers(database.db, { market: 'relayered', fields: FIELDS, bus, pollMs: 20 })).rejects.toThrow(/the layers changed while the prepare ran .*run prepare again/);
      const { rows } = await sql<{ current: string; vintages: number; jobs: number }>`
        select (select current_vintage_id::text from discovery.markets where slug = 'relayered') as current,
               (select count(*)::int from discovery.vintages where market_id = ${imported.marketId}) as vintages,
               (select count(*)::int from discovery.prepare_jobs) as jobs`.execute(database.db);
      expect(rows[0]).toEqual({ current: imported.vintageId, vintages: 1, jobs: 0 });
    } finally {
      await worker.stop();
      await bus.close();
    }
  });
});
