// Prepare reads its base and writes its vintage a chunk of the stored ranking index at a time.
// Property: however the base and the new vintage are cut into chunks, prepare stores the same
// facts (typed, free, derived, prepared) and the same per-parcel provenance as with one chunk —
// which is what prepare stored before the index was chunked. Real PostgreSQL and PGlite.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogDb, importLayer } from '@landscreen/catalog-service';
import type { DatabaseHandle } from '@landscreen/db';
import { discoveryDb, importVintage } from '@landscreen/discovery-service';
import { toParcelRecord, type GeoJSONGeometry } from '@landscreen/parcel-io';
import { createTestPGlite, createTestPostgres, DATABASE_MODES } from '@landscreen/testing';
import { storedChunks } from '../../../services/discovery/src/ranking/column-store.js';
import { prepareMarket } from './prepare-market.js';
import { vintageContents, withBaseNamed } from './vintage-contents.test-helper.js';

const FIELDS = ['nearest_substation_distance_m', 'substations_within_radius_count', 'intersects_wetland', 'wetland_type', 'wetland_acres_on_parcel'];

const square = (lon: number, lat: number, half: number): GeoJSONGeometry => ({
  type: 'Polygon',
  coordinates: [[[lon - half, lat - half], [lon + half, lat - half], [lon + half, lat + half], [lon - half, lat + half], [lon - half, lat - half]]],
});

// Free facts whose kinds differ between parcels (and so between chunks): numbers, strings,
// booleans, a mix of them, and absent.
const freeValue = fc.oneof(fc.constant(undefined), fc.integer({ min: 0, max: 5 }), fc.constantFrom('a', 'b', 'c'), fc.boolean());
type Parcel = { lon: number; lat: number; located: boolean; crop: unknown; mixed: unknown };
const market = fc.array(
  fc.record({
    lon: fc.double({ min: -97.1, max: -96.9, noNaN: true }),
    lat: fc.double({ min: 35, max: 35.2, noNaN: true }),
    located: fc.oneof({ arbitrary: fc.constant(true), weight: 4 }, { arbitrary: fc.constant(false), weight: 1 }),
    crop: freeValue,
    mixed: freeValue,
  }),
  { minLength: 1, maxLength: 40 },
);

describe.each(DATABASE_MODES)('prepare over random chunkings (%s)', (mode) => {
  let database: DatabaseHandle;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-chunks-'));

  beforeAll(async () => {
    database = mode === 'postgres' ? await createTestPostgres() : await createTestPGlite();
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

  /** Imports the market with its index cut every `chunkRows` rows, and prepares it cut every `prepareRows`. */
  const importAndPrepare = async (slug: string, parcels: Parcel[], chunkRows?: number, prepareRows?: number) => {
    const records = parcels.map((p, i) =>
      toParcelRecord(
        { line: i + 1, geometry: p.located ? square(p.lon, p.lat, 0.001) : null, properties: { parcel_key: `p${(i * 7919) % 1000}-${i}`, crop: p.crop, mixed: p.mixed, owner_name: `o${i}` } },
        slug,
      ),
    );
    await importVintage(discoveryDb(database.db), { market: slug, source: 'test', records, chunkRows });
    // The engine in process: how pages are evaluated is prepare-market.test.ts's concern, not chunking's.
    return prepareMarket(database.db, { market: slug, fields: FIELDS, chunkRows: prepareRows });
  };

  it('stores the same facts and provenance however the base and the new vintage are chunked', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(market, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 12 }), async (parcels, chunkRows, prepareRows) => {
        run++;
        const whole = await importAndPrepare(`whole-${run}`, parcels);
        const cut = await importAndPrepare(`cut-${run}`, parcels, chunkRows, prepareRows);
        expect(await storedChunks(discoveryDb(database.db), cut.baseVintageId)).toHaveLength(Math.ceil(parcels.length / chunkRows));
        expect(await storedChunks(discoveryDb(database.db), cut.vintageId)).toHaveLength(Math.ceil(parcels.length / prepareRows));
        expect(cut.parcels).toBe(whole.parcels);
        const [a, b] = [await vintageContents(database.db, whole.vintageId), await vintageContents(database.db, cut.vintageId)];
        // Provenance names the vintage a fact came from: the same apart from those ids.
        expect(withBaseNamed(b, cut.baseVintageId)).toEqual(withBaseNamed(a, whole.baseVintageId));
      }),
      { numRuns: 6 },
    );
  });
});
