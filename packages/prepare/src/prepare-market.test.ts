// `landscreen prepare` on real PostgreSQL and PGlite: a prepared fact is what the engine answers
// at the parcel's representative point (EvaluatePoints over Connect for point fields, the engine
// on the parcel's own polygon for overlays), the base vintage stays as it was, and a failure
// mid-way leaves the base current with nothing half-written.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, createRouterTransport, type Client } from '@connectrpc/connect';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogService, importLayer, LayerCache, catalogDb } from '@landscreen/catalog-service';
import type { DatabaseHandle } from '@landscreen/db';
import { discoveryDb, fieldProvenanceOf, provenanceOf } from '@landscreen/discovery-service';
import { UnknownFieldError } from '@landscreen/field-catalog';
import { representativePoint, type GeoJSONGeometry } from '@landscreen/parcel-io';
import { distanceM } from '@landscreen/point-engine';
import { catalogv1 } from '@landscreen/proto';
import { loadConfig } from '@landscreen/config';
import { createLogger, systemClock, type ServiceDeps } from '@landscreen/rpc';
import { demFixture } from '@landscreen/layer-io/testing/dem-fixtures';
import { createTestPGlite, createTestPostgres, DATABASE_MODES, loadMarket, type TestDatabase } from '@landscreen/testing';
import { valueAt } from '../../../services/discovery/src/ranking/columns.js';
import { loadVintageIndex } from '../../../services/discovery/src/ranking/column-store.js';
import { NoLayersError } from './prepare-fields.js';
import { prepareMarket } from './prepare-market.js';

const POINT_FIELDS = [
  'nearest_substation_distance_m',
  'nearest_substation_max_voltage_kv',
  'substations_within_radius_count',
  'substations_radius_m',
  'intersects_wetland',
  'wetland_type',
  'nearest_wetland_distance_m',
  'wetlands_within_500m_count',
];
const OVERLAY_FIELDS = ['wetland_acres_on_parcel', 'wetland_fraction_of_parcel'];
/** Reads nced_easements and fema_nfhl too, never loaded here: always null, no_coverage. */
const UNCOVERED = 'developable_acres_proxy';

const square = (lon: number, lat: number, half: number): GeoJSONGeometry => ({
  type: 'Polygon',
  coordinates: [[[lon - half, lat - half], [lon + half, lat - half], [lon + half, lat + half], [lon - half, lat + half], [lon - half, lat - half]]],
});
const featureCollection = (features: { geometry: GeoJSONGeometry; properties: Record<string, unknown> }[]) =>
  JSON.stringify({ type: 'FeatureCollection', features: features.map((feature) => ({ type: 'Feature', ...feature })) });

const lon = (min = -97.1, max = -96.9) => fc.double({ min, max, noNaN: true });
const lat = (min = 35, max = 35.2) => fc.double({ min, max, noNaN: true });
const world = fc.record({
  parcels: fc.array(fc.record({ lon: lon(), lat: lat(), half: fc.double({ min: 0.0005, max: 0.004, noNaN: true }) }), { minLength: 1, maxLength: 12 }),
  substations: fc.array(fc.record({ lon: lon(-97.2, -96.8), lat: lat(34.9, 35.3), kv: fc.constantFrom(69, 138, 345) }), { minLength: 1, maxLength: 6 }),
  wetlands: fc.array(
    fc.record({ lon: lon(), lat: lat(), half: fc.double({ min: 0.0005, max: 0.01, noNaN: true }), type: fc.constantFrom('PEM', 'PFO') }),
    { minLength: 1, maxLength: 5 },
  ),
  fields: fc.subarray([...POINT_FIELDS, ...OVERLAY_FIELDS], { minLength: 1 }),
});

describe.each(DATABASE_MODES)('landscreen prepare (%s)', (mode) => {
  let database: DatabaseHandle;
  let catalog: Client<typeof catalogv1.CatalogService>;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-prepare-'));
  let files = 0;
  const layer = async (source: string, content: string) => {
    const file = path.join(dir, `layer-${++files}.geojson`);
    writeFileSync(file, content);
    return importLayer(catalogDb(database.db), { source, file });
  };
  const currentVintage = async (market: string) =>
    (await sql<{ id: string | null }>`select current_vintage_id as id from discovery.markets where slug = ${market}`.execute(database.db)).rows[0]?.id;

  beforeAll(async () => {
    database = mode === 'postgres' ? await createTestPostgres() : await createTestPGlite();
    // Only EvaluatePoints is called: the peers other handlers use are never reached.
    const deps = { db: database.db, peer: () => ({}), config: loadConfig({}), clock: systemClock, logger: createLogger('silent') } as unknown as ServiceDeps;
    catalog = createClient(catalogv1.CatalogService, createRouterTransport(createCatalogService(deps).routes));
  });
  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('says so when no layer is loaded for any requested field, before writing anything', async () => {
    await loadMarket(database.db, 'bare', [{ geometry: square(-97, 35.1, 0.001), properties: { parcel_key: 'b1' } }]);
    const before = await currentVintage('bare');
    const error = await prepareMarket(database.db, { market: 'bare' }).catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(NoLayersError);
    expect((error as Error).message).toMatch(/no layer is loaded for any requested field.*landscreen import layer/);
    expect(await currentVintage('bare')).toBe(before);
  });

  it('refuses an unknown market, a market with no vintage and an unknown field (with did-you-mean)', async () => {
    await layer('hifld_substations', featureCollection([{ geometry: { type: 'Point', coordinates: [-97, 35] }, properties: { max_voltage_kv: 138 } }]));
    await expect(prepareMarket(database.db, { market: 'nowhere' })).rejects.toThrow('no market "nowhere"');
    await sql`insert into discovery.markets (slug, name) values ('empty', 'Empty')`.execute(database.db);
    await expect(prepareMarket(database.db, { market: 'empty' })).rejects.toThrow('market "empty" has no current vintage');
    const unknown = await prepareMarket(database.db, { market: 'bare', fields: ['nearest_substation_distanse_m'] }).catch((caught: Error) => caught);
    expect(unknown).toBeInstanceOf(UnknownFieldError);
    expect((unknown as Error).message).toContain('did you mean "nearest_substation_distance_m"?');
  });

  it("stores, for every parcel and field, what the engine answers at the parcel's representative point", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(world, async ({ parcels, substations, wetlands, fields }) => {
        const market = `prop-${++run}`;
        await layer('hifld_substations', featureCollection(substations.map((s) => ({ geometry: { type: 'Point', coordinates: [s.lon, s.lat] }, properties: { max_voltage_kv: s.kv } }))));
        await layer('usfws_nwi', featureCollection(wetlands.map((w) => ({ geometry: square(w.lon, w.lat, w.half), properties: { wetland_type: w.type } }))));
        const geometries = parcels.map((p) => square(p.lon, p.lat, p.half));
        const base = await loadMarket(database.db, market, geometries.map((geometry, i) => ({ geometry, properties: { parcel_key: `k${i}`, owner_name: `owner ${i}`, crop: 'wheat' } })));
        const requested = [...fields, UNCOVERED];
        // On PostgreSQL the engine runs on worker threads (as `landscreen prepare` does there), on PGlite in process.
        const engineWorkers = mode === 'postgres' ? { databaseUrl: (database as TestDatabase).url, count: 1, fromParcels: 0 } : undefined;
        const prepared = await prepareMarket(database.db, { market, fields: requested, engineWorkers });
        expect(prepared).toMatchObject({ baseVintageId: base.vintageId, parcels: parcels.length, fields: requested });
        expect(await currentVintage(market)).toBe(prepared.vintageId);

        const index = await loadVintageIndex(discoveryDb(database.db), prepared.vintageId);
        const vintage = { id: prepared.vintageId, fieldProvenance: await fieldProvenanceOf(discoveryDb(database.db), prepared.vintageId) };
        const { rows } = await sql<{ parcel_key: string; lat: number; lon: number; owner_name: string; provenance: Record<string, any> }>`
          select parcel_key, lat, lon, owner_name, provenance from discovery.parcels where vintage_id = ${prepared.vintageId} order by parcel_key`.execute(database.db);
        expect(rows.map((row) => row.parcel_key).sort()).toEqual(parcels.map((_, i) => `k${i}`).sort());
        const byKey = new Map(rows.map((row) => [row.parcel_key, row]));
        const points = geometries.map((geometry) => representativePoint(geometry));
        // Point fields: the catalog service's EvaluatePoints at the representative point (with no
        // parcel fields asked, it matches no parcel, which only a tenant's caller may have done).
        const isOverlay = (field: string) => OVERLAY_FIELDS.includes(field) || field === UNCOVERED;
        const pointFields = requested.filter((field) => !isOverlay(field));
        const locations = points.map(([x, y], i) => ({ lon: x, lat: y, id: `k${i}` }));
        const { results } = pointFields.length > 0
          ? await catalog.evaluatePoints({ locations, fields: pointFields })
          : { results: locations.map(({ id }) => ({ id, answers: [] as catalogv1.FieldAnswer[] })) };
        // Overlays: the engine on the parcel's own polygon (EvaluatePoints has no parcel index).
        const { engine } = await new LayerCache(catalogDb(database.db)).current();
        const overlays = engine.evaluate(
          points.map(([x, y]) => ({ lon: x, lat: y })),
          requested,
          { parcels: geometries.map((geometry, i) => ({ vintage: base.vintageId, parcel: { id: `k${i}`, geometry: geometry as never }, match_type: 'exact_intersect', distance_m: 0, radius_m: 0 })) },
        );
        results.forEach((result, i) => {
          const row = byKey.get(result.id)!;
          expect([row.lon, row.lat]).toEqual(points[i]);
          expect(row.owner_name).toBe(`owner ${i}`);
          const at = index.rowOfKey(result.id)!;
          expect(valueAt(index.column('crop'), at)).toBe('wheat');
          requested.forEach((field, f) => {
            const stored = valueAt(index.column(field), at);
            // As discovery's readers (GetParcel, query results) show it: the vintage's entry of the field with the parcel's difference.
            const provenance = provenanceOf(row, { typed: {}, derived: stored === null ? {} : { [field]: stored } }, vintage)[field] as Record<string, any>;
            expect(provenance.vintage_id).toBe(prepared.vintageId);
            const overlay = isOverlay(field);
            const rpc = result.answers[pointFields.indexOf(field)];
            const value = overlay ? overlays.value(i, f) : rpcValue(rpc.value);
            const reason = overlay ? overlays.reason(i, f) : rpc.nullReason || null;
            expect([field, stored]).toEqual([field, value]);
            expect([field, provenance.null_reason ?? null]).toEqual([field, reason]);
            if (field === UNCOVERED) expect(provenance).toMatchObject({ layer_version: null, null_reason: 'no_coverage' });
            else {
              const layers = overlay ? overlays.provenance(i, f)!.layers : rpc.provenance!.layers.map((l) => ({ source: l.source, layer_version: l.layerVersionId }));
              const primary = layers.find((l) => l.source !== 'parcel_vendor')!;
              expect(provenance).toMatchObject({ source: primary.source, layer_version: primary.layer_version, formula_version: overlay ? 1 : null });
            }
          });
        });
      }),
      { numRuns: 6 },
    );
  });

  it('stores a null with reason no_location for a parcel without geometry, and keeps its other facts', async () => {
    await layer('hifld_substations', featureCollection([{ geometry: { type: 'Point', coordinates: [-97, 35] }, properties: { max_voltage_kv: 345 } }]));
    await loadMarket(database.db, 'nowhere-parcel', [
      { geometry: null, properties: { parcel_key: 'n1', owner_name: 'Nobody', nearest_substation_distance_m: 5 } },
      { geometry: { type: 'Point', coordinates: [-97, 35] }, properties: { parcel_key: 'n2' } },
    ]);
    const prepared = await prepareMarket(database.db, { market: 'nowhere-parcel', fields: ['nearest_substation_distance_m'] });
    const index = await loadVintageIndex(discoveryDb(database.db), prepared.vintageId);
    const column = index.column('nearest_substation_distance_m');
    // The imported 5 is replaced: prepare's answer (here: unknown) is the fact.
    expect([valueAt(column, index.rowOfKey('n1')!), valueAt(column, index.rowOfKey('n2')!)]).toEqual([null, 0]);
    expect(valueAt(index.column('owner_name'), index.rowOfKey('n1')!)).toBe('Nobody');
    const { rows } = await sql<{ parcel_key: string; provenance: Record<string, any> }>`
      select parcel_key, provenance from discovery.parcels where vintage_id = ${prepared.vintageId} order by parcel_key`.execute(database.db);
    const vintage = { id: prepared.vintageId, fieldProvenance: await fieldProvenanceOf(discoveryDb(database.db), prepared.vintageId) };
    const shown = (row: (typeof rows)[number], value: unknown) =>
      provenanceOf(row, { typed: {}, derived: value === null ? {} : { nearest_substation_distance_m: value } }, vintage).nearest_substation_distance_m;
    expect(shown(rows[0], null)).toEqual({ source: 'hifld_substations', layer_version: null, formula_version: null, null_reason: 'no_location', vintage_id: prepared.vintageId });
    const [{ id: layerVersion }] = (await sql<{ id: string }>`select id from catalog.layer_versions where source = 'hifld_substations' order by seq desc limit 1`.execute(database.db)).rows;
    expect(shown(rows[1], 0)).toEqual({ source: 'hifld_substations', layer_version: layerVersion, formula_version: null, vintage_id: prepared.vintageId });
    // Stored once for the vintage, not per parcel: the located parcel's row holds nothing of it.
    expect(rows[1].provenance).toEqual({});
  });

  it('screens on a DEM of GeoTIFF tiles (on PostgreSQL read block by block on worker threads, the blocks sent with each page)', async () => {
    const tiles = ['dem_r0c0.tif', 'dem_r0c1.tif', 'dem_r1c0.tif', 'dem_r1c1.tif'].map((name) => demFixture('tiles', name));
    await importLayer(catalogDb(database.db), { source: 'usgs_3dep', file: tiles, gridBlockSize: 8 });
    // Parcels across the mosaic: each tile, the seams, and one over the nodata hole (cells 48-51, 40-43).
    const centres = [[-97.97, 30.13], [-97.88, 30.14], [-97.95, 30.02], [-97.85, 30.02], [-97.9201, 30.111], [-97.9199, 30.0801], [-97.875, 30.055]];
    await loadMarket(database.db, 'dem', centres.map(([x, y], i) => ({ geometry: square(x, y, 0.0002), properties: { parcel_key: `d${i}` } })));
    const fields = ['elevation', 'slope_degrees', 'aspect_degrees'];
    const engineWorkers = mode === 'postgres' ? { databaseUrl: (database as TestDatabase).url, count: 1, fromParcels: 0 } : undefined;
    const layerCache = mode === 'postgres' ? { wholeGridBytes: 0, gridCacheBytes: 4 * 8 * 8 * 4 } : undefined;
    const prepared = await prepareMarket(database.db, { market: 'dem', fields, engineWorkers, layerCache });
    const index = await loadVintageIndex(discoveryDb(database.db), prepared.vintageId);
    const points = centres.map(([x, y], i) => {
      const [lon, lat] = representativePoint(square(x, y, 0.0002));
      return { id: `d${i}`, lon, lat };
    });
    const { results } = await catalog.evaluatePoints({ locations: points.map(({ id, lon, lat }) => ({ id, lon, lat })), fields });
    results.forEach((result, i) => {
      fields.forEach((field, f) => {
        const stored = valueAt(index.column(field), index.rowOfKey(result.id)!);
        const answered = rpcValue(result.answers[f].value) ?? null;
        if (typeof answered === 'number') expect(stored).toBeCloseTo(answered, 6);
        else expect(stored).toBe(answered);
      });
      expect(typeof valueAt(index.column('elevation'), index.rowOfKey(result.id)!)).toBe(i === centres.length - 1 ? 'object' : 'number');
    });
  });

  it('answers radius_used fields like any field, and preparing again keeps the provenance of the fields prepared before', async () => {
    await layer('hifld_substations', featureCollection([{ geometry: { type: 'Point', coordinates: [-97, 35] }, properties: { max_voltage_kv: 345 } }]));
    const [{ id: substations }] = (await sql<{ id: string }>`select id from catalog.layer_versions where source = 'hifld_substations' order by seq desc limit 1`.execute(database.db)).rows;
    await loadMarket(database.db, 'twice', [{ geometry: { type: 'Point', coordinates: [-97, 35.001] }, properties: { parcel_key: 't1' } }]);
    const first = await prepareMarket(database.db, { market: 'twice', fields: ['nearest_substation_distance_m', 'nearest_substation_status'] });
    const second = await prepareMarket(database.db, { market: 'twice', fields: ['substations_radius_m', 'pipelines_radius_m'] });
    expect(second.baseVintageId).toBe(first.vintageId);
    const index = await loadVintageIndex(discoveryDb(database.db), second.vintageId);
    const at = index.rowOfKey('t1')!;
    const facts = Object.fromEntries(['nearest_substation_distance_m', 'nearest_substation_status', 'substations_radius_m', 'pipelines_radius_m'].map((field) => [field, valueAt(index.column(field), at)]));
    expect(facts).toMatchObject({ nearest_substation_status: null, substations_radius_m: 10_000, pipelines_radius_m: 10_000 });
    expect(facts.nearest_substation_distance_m).toBeCloseTo(110.9, 0);
    const { rows } = await sql<{ provenance: Record<string, any> }>`select provenance from discovery.parcels where vintage_id = ${second.vintageId}`.execute(database.db);
    const derived = Object.fromEntries(Object.entries(facts).filter(([, value]) => value !== null));
    const shown = provenanceOf(rows[0], { typed: {}, derived }, { id: second.vintageId, fieldProvenance: await fieldProvenanceOf(discoveryDb(database.db), second.vintageId) });
    const vintage_id = second.vintageId;
    expect(shown).toMatchObject({
      nearest_substation_distance_m: { source: 'hifld_substations', layer_version: substations, formula_version: null, vintage_id },
      nearest_substation_status: { source: 'hifld_substations', layer_version: substations, formula_version: null, null_reason: 'not_published', vintage_id },
      substations_radius_m: { source: 'hifld_substations', layer_version: substations, formula_version: null, vintage_id },
      pipelines_radius_m: { source: 'service_parameter', layer_version: null, formula_version: null, vintage_id },
    });
    expect(shown.nearest_substation_distance_m).not.toHaveProperty('null_reason');
  });

  it('leaves the base vintage as it was and queryable, and a failure mid-way leaves it current with nothing written', async () => {
    await layer('hifld_substations', featureCollection([{ geometry: { type: 'Point', coordinates: [-97, 35] }, properties: { max_voltage_kv: 345 } }]));
    // More parcels than a page (2,000): the fault strikes after the first page went to the database.
    const features = Array.from({ length: 2_100 }, (_, i) => ({ geometry: { type: 'Point' as const, coordinates: [-97 + (i % 50) * 0.001, 35 + Math.floor(i / 50) * 0.001] }, properties: { parcel_key: `f${String(i).padStart(5, '0')}` } }));
    const base = await loadMarket(database.db, 'faulty', features);
    const vintages = async () => (await sql<{ id: string; status: string }>`select v.id, v.status from discovery.vintages v join discovery.markets m on m.id = v.market_id where m.slug = 'faulty' order by v.created_at`.execute(database.db)).rows;
    const partitions = async () => (await sql<{ n: number }>`select count(*)::int as n from pg_inherits where inhparent = 'discovery.parcels'::regclass`.execute(database.db)).rows[0].n;
    const tablesBefore = await partitions();

    let pages = 0;
    const faults = (point: string) => {
      if (point === 'prepare.page' && ++pages === 2) throw new Error('injected fault at prepare.page');
    };
    // On PostgreSQL, on two engine workers: pages are screened two at a time and still written in order.
    const engineWorkers = mode === 'postgres' ? { databaseUrl: (database as TestDatabase).url, count: 2, fromParcels: 0 } : undefined;
    await expect(prepareMarket(database.db, { market: 'faulty', fields: ['nearest_substation_distance_m'], faults, engineWorkers })).rejects.toThrow('injected fault');
    expect(pages).toBe(2);
    expect(await currentVintage('faulty')).toBe(base.vintageId);
    expect(await vintages()).toEqual([{ id: base.vintageId, status: 'ready' }]);
    expect(await partitions()).toBe(tablesBefore);
    const leftover = await sql<{ n: number }>`select count(*)::int as n from pg_tables where schemaname = 'discovery' and tablename like 'parcels\_%' and tablename not in (select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid)`.execute(database.db);
    expect(leftover.rows[0].n).toBe(0);

    const prepared = await prepareMarket(database.db, { market: 'faulty', fields: ['nearest_substation_distance_m'], engineWorkers });
    expect(prepared.parcels).toBe(2_100);
    expect(await currentVintage('faulty')).toBe(prepared.vintageId);
    // The base: still ready, same rows, and its stored index has no prepared fact.
    expect((await vintages()).map((v) => v.status)).toEqual(['ready', 'ready']);
    const old = await loadVintageIndex(discoveryDb(database.db), base.vintageId);
    expect(old.size).toBe(2_100);
    expect(old.column('nearest_substation_distance_m')).toBeUndefined();
    const count = await sql<{ n: number }>`select count(*)::int as n from discovery.parcels where vintage_id = ${base.vintageId}`.execute(database.db);
    expect(count.rows[0].n).toBe(2_100);
    const fresh = await loadVintageIndex(discoveryDb(database.db), prepared.vintageId);
    expect(valueAt(fresh.column('nearest_substation_distance_m'), fresh.rowOfKey('f00000')!)).toBe(0);
    // The last parcel, of the second page: 0.041° north and 0.049° west of the substation.
    const [x, y] = features[2_099].geometry.coordinates;
    const last = valueAt(fresh.column('nearest_substation_distance_m'), fresh.rowOfKey('f02099')!) as number;
    expect(Math.abs(last - distanceM(-97, 35, x, y)) / last).toBeLessThan(0.005);
  });
});

function rpcValue(value: catalogv1.FieldAnswer['value']): unknown {
  if (value.case === undefined) return null;
  return typeof value.value === 'bigint' ? Number(value.value) : value.value;
}
