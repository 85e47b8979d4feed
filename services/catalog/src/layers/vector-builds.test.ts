// A vector layer version built on the worker thread answers exactly as one built in place, on both
// databases; a version the worker cannot build fails its load with the engine's own error, and the
// next load is unaffected.

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@landscreen/db';
import type { SourceId } from '@landscreen/field-catalog';
import { LayerBuildError } from '@landscreen/point-engine';
import { createTestPGlite, createTestPostgres, DATABASE_MODES } from '@landscreen/testing';
import { catalogDb, type CatalogDb } from '../schema.js';
import { layerFiles, type LayerFiles } from '../testing/layer-files.js';
import { encodeFeatures } from './chunk-codec.js';
import { importLayer } from './import-layer.js';
import { LayerCache } from './layer-cache.js';
import { VectorLoad } from './vector-builds.js';

const LINES = 'hifld_transmission_lines' as SourceId;
const FIELDS = [
  'nearest_transmission_line_distance_m',
  'nearest_transmission_line_voltage_kv',
  'nearest_transmission_line_status',
  'max_transmission_line_voltage_kv_within_radius',
  'transmission_lines_within_radius_count',
];

/** mulberry32: the same layer and points on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * 60 wandering lines of 400 vertices (24,000 in all, so several stored chunks and lines the index
 * cuts into many pieces), some of two paths, with voltages and statuses.
 */
function lineLayer(): string {
  const next = random(11);
  const features = Array.from({ length: 60 }, (_, l) => {
    const path = () => {
      let [lon, lat] = [-97.8 + next() * 0.4, 30.1 + next() * 0.4];
      return Array.from({ length: 200 }, () => [(lon += (next() - 0.5) * 0.002), (lat += (next() - 0.5) * 0.002)]);
    };
    const geometry = l % 3 === 0 ? { type: 'MultiLineString', coordinates: [path(), path()] } : { type: 'LineString', coordinates: [...path(), ...path()] };
    return JSON.stringify({ type: 'Feature', geometry, properties: { voltage_kv: 69 + (l % 5) * 69, status: l % 7 === 0 ? 'NOT AVAILABLE' : 'IN SERVICE' } });
  });
  return `{"type":"FeatureCollection","features":[\n${features.join(',\n')}\n]}\n`;
}

const next = random(5);
const POINTS = Array.from({ length: 300 }, () => ({ lon: -97.85 + next() * 0.5, lat: 30.05 + next() * 0.5 }));

async function storedChunks(catalog: CatalogDb, versionId: string): Promise<Uint8Array[]> {
  const { rows } = await sql<{ data: Uint8Array }>`select data from catalog.layer_chunks where version_id = ${versionId} order by chunk_no`.execute(catalog);
  return rows.map((row) => row.data);
}

describe.each(DATABASE_MODES)('vector layer versions built off the thread answering requests (%s)', (mode) => {
  let database: DatabaseHandle;
  let files: LayerFiles;
  let catalog: CatalogDb;
  let versionId: string;

  beforeAll(async () => {
    database = mode === 'postgres' ? await createTestPostgres() : await createTestPGlite();
    catalog = catalogDb(database.db);
    files = await layerFiles();
    ({ versionId } = await importLayer(catalog, { source: LINES, file: await files.write('lines.geojson', lineLayer()) }));
  });
  afterAll(async () => {
    await files?.remove();
    await database?.close();
  });

  it('a version built on the worker answers every field at every point as one built in place', async () => {
    expect((await storedChunks(catalog, versionId)).length).toBeGreaterThan(1);
    const onWorker = await new LayerCache(catalog, { offThreadBytes: 0 }).current();
    const inPlace = await new LayerCache(catalog, { offThreadBytes: Number.POSITIVE_INFINITY }).current();
    const answers = [onWorker, inPlace].map(({ engine }) => engine.evaluate(POINTS, FIELDS));
    const records = answers.map((answer) => POINTS.map((_, i) => answer.record(i)));
    expect(records[0]).toEqual(records[1]);
    // Real answers, not two equal sets of nulls: most points have a line within reach.
    const distances = records[0]!.map((record) => record.values.nearest_transmission_line_distance_m);
    expect(distances.filter((value) => typeof value === 'number' && value > 0).length).toBeGreaterThan(POINTS.length / 2);
  });

  it('a load handed to the worker builds the index the engine builds from the same chunks', async () => {
    const chunks = await storedChunks(catalog, versionId);
    const load = (offThreadBytes: number) => {
      const vectorLoad = new VectorLoad(LINES, versionId, offThreadBytes);
      // Each load its own copies: a chunk handed to the worker moves there.
      for (const chunk of chunks) vectorLoad.add(new Uint8Array(chunk));
      return vectorLoad;
    };
    const onWorker = load(0);
    const inPlace = load(Number.POSITIVE_INFINITY);
    expect([onWorker.offThread, inPlace.offThread]).toEqual([true, false]);
    const [fromWorker, builtHere] = await Promise.all([onWorker.finish(), inPlace.finish()]);
    expect(fromWorker.size).toBe(60);
    for (const id of [0, 1, 30, 59]) expect(fromWorker.shape(id)).toEqual(builtHere.shape(id));
    expect(fromWorker.column('voltage_kv')).toEqual(builtHere.column('voltage_kv'));
    expect(fromWorker.spacingM).toBe(builtHere.spacingM);
  });

  it('a version the worker cannot build fails its load with the engine error; the loads after it build', async () => {
    // A point in a lines source: the engine refuses the version and names the feature.
    const bad = new VectorLoad(LINES, 'bad-version', 0);
    bad.add(encodeFeatures([[{ type: 'LineString', coordinates: [[-97, 30], [-97.1, 30.1]] }, {}]]));
    bad.add(encodeFeatures([[{ type: 'Point', coordinates: [-97, 30] }, {}]]));
    const error = await bad.finish().then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(LayerBuildError);
    expect(error).toMatchObject({ position: 2, message: 'feature 2: hifld_transmission_lines is a lines source; got Point' });
    // One abandoned part-way (its database read failed) and one after it: the worker carries on.
    const abandoned = new VectorLoad(LINES, 'abandoned-version', 0);
    abandoned.add(encodeFeatures([[{ type: 'LineString', coordinates: [[-97, 30], [-97.1, 30.1]] }, {}]]));
    abandoned.abandon();
    const good = new VectorLoad(LINES, 'good-version', 0);
    good.add(encodeFeatures([[{ type: 'LineString', coordinates: [[-97, 30], [-97.1, 30.1]] }, { voltage_kv: 138 }]]));
    const index = await good.finish();
    expect(index.size).toBe(1);
    expect(index.column('voltage_kv')).toEqual([138]);
  });
});
