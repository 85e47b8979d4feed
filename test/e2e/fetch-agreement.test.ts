// Every path that answers point data agrees, for random points and random field sets
// (parcel_record fields included): POST /v1/fetch/batch, a run's results in NDJSON, CSV and
// GeoJSON (POST /v1/runs over the same body), and the facts `landscreen prepare` stores for a
// parcel at its representative point. Same values, nulls and reasons; numbers as D40 rounds them
// for every REST format (a run's CSV writes the JSON's number as it is), while prepare stores the
// unrounded number (compared once rounded by the same rule). Parcel vendor items (parcel_apn,
// parcel_owner, …) are compared between fetch/batch and runs only: in a vintage they are the
// parcel's own typed columns, which prepare never computes.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogDb, importLayer } from '@landscreen/catalog-service';
import { discoveryDb, fieldProvenanceOf, provenanceOf } from '@landscreen/discovery-service';
import { roundFact } from '@landscreen/field-catalog';
import { representativePoint, type GeoJSONGeometry } from '@landscreen/parcel-io';
import { DATABASE_MODES, entitleTenant, loadMarket, startTestStack, type TestStack } from '@landscreen/testing';
import { prepareMarket } from '@landscreen/prepare';
import { valueAt } from '../../services/discovery/src/ranking/columns.js';
import { loadVintageIndex } from '../../services/discovery/src/ranking/column-store.js';
import type { VintageIndex } from '../../services/discovery/src/ranking/vintage-index.js';
import { batchResults, headersOf, parseCsv, resultsFile, settledRun, tenantOnPlan } from '../support/runs.js';

const MARKET = 'agree-tx';
const TENANT = 'agree';

/** Fields prepare computes (point fields, a parcel overlay, one never covered): compared on every path. */
const PREPARED = [
  'nearest_substation_distance_m',
  'nearest_substation_max_voltage_kv',
  'substations_within_radius_count',
  'intersects_wetland',
  'wetland_type',
  'nearest_wetland_distance_m',
  'wetland_acres_on_parcel',
  'wetland_fraction_of_parcel',
  'developable_acres_proxy',
  'nearest_gas_pipeline_distance_m',
];
/** The parcel's own items: compared between fetch/batch and runs. */
const VENDOR = ['parcel_id', 'parcel_apn', 'parcel_owner', 'parcel_zoning', 'parcel_area_m2', 'parcel_match_type', 'parcel_match_distance_m'];

const square = (lon: number, lat: number, half: number): GeoJSONGeometry => ({
  type: 'Polygon',
  coordinates: [[[lon - half, lat - half], [lon + half, lat - half], [lon + half, lat + half], [lon - half, lat + half], [lon - half, lat - half]]],
});

/** A 4 x 4 grid of parcels that never overlap (cells of 0.01°, squares of at most 0.008°), every second one with vendor items. */
const PARCELS = Array.from({ length: 16 }, (_, i) => {
  const geometry = square(-97.08 + (i % 4) * 0.01, 35.02 + Math.floor(i / 4) * 0.01, 0.002 + (i % 3) * 0.001);
  const items = i % 2 === 0 ? { apn: `A-${i}`, owner_name: `Owner "${i}", LLC`, zoning: i % 4 === 0 ? 'industrial' : 'ag' } : {};
  return { key: `k${i}`, geometry, properties: { parcel_key: `k${i}`, ...items } };
});
const REPRESENTATIVE = PARCELS.map((parcel) => representativePoint(parcel.geometry));

const point = fc.oneof(
  // A parcel's representative point: where prepare's stored facts are compared too.
  fc.record({ parcel: fc.integer({ min: 0, max: PARCELS.length - 1 }), id: fc.boolean() }).map(({ parcel, id }) => ({
    lon: REPRESENTATIVE[parcel][0],
    lat: REPRESENTATIVE[parcel][1],
    ...(id ? { id: PARCELS[parcel].key } : {}),
  })),
  // Anywhere around the market: between parcels, near them, or far from any.
  fc.record({ lon: fc.double({ min: -97.1, max: -97.03, noNaN: true }), lat: fc.double({ min: 35, max: 35.07, noNaN: true }), id: fc.option(fc.string({ minLength: 1, maxLength: 6 }), { nil: undefined }) }),
);
const world = fc.record({
  points: fc.array(point, { minLength: 1, maxLength: 30 }),
  fields: fc.shuffledSubarray([...PREPARED, ...VENDOR], { minLength: 1 }),
});

describe.each(DATABASE_MODES)('fetch/batch, runs and prepare agree (%s)', (mode) => {
  let app: TestStack;
  let vintageId: string;
  let index: VintageIndex;
  let rowsByKey: Map<string, { provenance: Record<string, unknown> }>;
  let fieldProvenance: Awaited<ReturnType<typeof fieldProvenanceOf>>;

  beforeAll(async () => {
    app = await startTestStack(mode, { runsWorker: true, config: { runs: { embedded: true, chunkSize: 7, leaseSeconds: 30, concurrency: 2 } } });
    const db = app.stack.database.db;
    const dir = await mkdtemp(path.join(os.tmpdir(), 'landscreen-agree-'));
    try {
      const layer = async (source: string, features: { geometry: GeoJSONGeometry; properties: Record<string, unknown> }[]) => {
        const file = path.join(dir, `${source}.geojson`);
        await writeFile(file, JSON.stringify({ type: 'FeatureCollection', features: features.map((feature) => ({ type: 'Feature', ...feature })) }));
        await importLayer(catalogDb(db), { source, file });
      };
      await layer('hifld_substations', [
        { geometry: { type: 'Point', coordinates: [-97.071, 35.033] }, properties: { name: 'North', max_voltage_kv: 138 } },
        { geometry: { type: 'Point', coordinates: [-97.04, 35.01] }, properties: { name: 'South' } },
        { geometry: { type: 'Point', coordinates: [-97.2, 35.2] }, properties: { name: 'Far', max_voltage_kv: 345 } },
      ]);
      await layer('usfws_nwi', [
        { geometry: square(-97.075, 35.025, 0.004), properties: { wetland_type: 'PEM' } },
        { geometry: square(-97.05, 35.05, 0.006), properties: { wetland_type: 'PFO' } },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    await loadMarket(db, MARKET, PARCELS.map(({ geometry, properties }) => ({ geometry, properties })));
    await tenantOnPlan(app, db, TENANT, 'scale');
    await entitleTenant(db, TENANT, MARKET);
    ({ vintageId } = await prepareMarket(db, { market: MARKET, fields: PREPARED }));
    index = await loadVintageIndex(discoveryDb(db), vintageId);
    fieldProvenance = await fieldProvenanceOf(discoveryDb(db), vintageId);
    const { rows } = await sql<{ parcel_key: string; provenance: Record<string, unknown> }>`
      select parcel_key, provenance from discovery.parcels where vintage_id = ${vintageId}`.execute(db);
    rowsByKey = new Map(rows.map((row) => [row.parcel_key, row]));
  });
  afterAll(async () => {
    await app?.close();
  });

  /** What prepare stored for the parcel `key` and `field`: the fact as REST rounds it, and the reason of a null. */
  const prepared = (key: string, field: string) => {
    const stored = valueAt(index.column(field), index.rowOfKey(key)!);
    const shown = provenanceOf(rowsByKey.get(key)!, { typed: {}, derived: stored === null ? {} : { [field]: stored } }, { id: vintageId, fieldProvenance })[field] as {
      null_reason?: string;
    };
    return { value: roundFact(field, stored), reason: shown.null_reason };
  };

  it('answers the same values, nulls and reasons on every path, rounded as each format documents', async () => {
    // What the runs compared, so a world that never reaches a parcel or a layer cannot pass unseen.
    const seen = { preparedFacts: 0, numbers: 0, strings: 0, nulls: 0 };
    await fc.assert(
      fc.asyncProperty(world, async ({ points, fields }) => {
        const batch = await batchResults(app, TENANT, points, fields);
        expect(batch).toHaveLength(points.length);
        for (const result of batch) {
          for (const value of Object.values(result.values)) {
            if (typeof value === 'number') seen.numbers++;
            else if (typeof value === 'string') seen.strings++;
            else if (value === null) seen.nulls++;
          }
        }

        const submitted = await app.post('/v1/runs', { locations: points, fields }, { headers: headersOf(TENANT) });
        expect(submitted.status).toBe(202);
        const runId = submitted.body.run_id;
        expect((await settledRun(app, TENANT, runId)).status).toBe('succeeded');

        // NDJSON: each line is the very object fetch/batch answers.
        const ndjson = await resultsFile(app.url, TENANT, runId, 'ndjson');
        expect(ndjson.text.split('\n').filter((line) => line.length > 0).map((line) => JSON.parse(line))).toEqual(batch);

        // CSV: a column per field in the asked order, the JSON's value as written, empty for a null.
        const csv = parseCsv((await resultsFile(app.url, TENANT, runId, 'csv')).text);
        expect(csv[0]).toEqual(['id', 'lat', 'lon', ...fields, 'null_reasons']);
        expect(csv.slice(1)).toEqual(
          batch.map((result) => [
            result.id ?? '',
            String(result.lat),
            String(result.lon),
            ...fields.map((field) => (result.values[field] === null ? '' : String(result.values[field]))),
            Object.keys(result.null_reasons).length === 0 ? '' : JSON.stringify(result.null_reasons),
          ]),
        );

        // GeoJSON: a point feature per result, its values and reasons as properties.
        const geojson = JSON.parse((await resultsFile(app.url, TENANT, runId, 'geojson')).text);
        expect(geojson.features).toEqual(
          batch.map((result) => ({
            type: 'Feature',
            geometry: { type: 'Point', coordinates: [result.lon, result.lat] },
            properties: { id: result.id, values: result.values, null_reasons: result.null_reasons },
          })),
        );

        // Prepare: at a parcel's representative point, its stored facts are what fetch/batch answers.
        points.forEach((location, n) => {
          const parcel = REPRESENTATIVE.findIndex(([lon, lat]) => lon === location.lon && lat === location.lat);
          if (parcel < 0) return;
          for (const field of fields.filter((name) => PREPARED.includes(name))) {
            const stored = prepared(PARCELS[parcel].key, field);
            expect([field, batch[n].values[field]]).toEqual([field, stored.value]);
            expect([field, batch[n].null_reasons[field]]).toEqual([field, stored.reason]);
            seen.preparedFacts++;
          }
        });
      }),
      { numRuns: 8 },
    );
    expect(Object.values(seen).every((count) => count > 0)).toBe(true);
  });
});
