// A GeoPackage read by two workers at once (each a range of row ids) is stored as one reader
// stores it, and refused as one reader refuses it: the same message naming the same feature.

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@landscreen/db';
import { readLayer } from '@landscreen/layer-io';
import { COUNTIES, fixture } from '@landscreen/layer-io/testing';
import { createTestPGlite, createTestPostgres, DATABASE_MODES } from '@landscreen/testing';
import { catalogDb, type CatalogDb } from '../schema.js';
import { decodeFeatures } from './chunk-codec.js';
import { importLayer, type ImportLayerOptions } from './import-layer.js';

const FILE = fixture('counties-albers.gpkg');
const BASE: ImportLayerOptions = { source: 'census_tiger', file: FILE, map: 'NAME=county' };

async function refusal(catalog: CatalogDb, options: ImportLayerOptions): Promise<string> {
  try {
    await importLayer(catalog, options);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the import to be refused');
}

describe.each(DATABASE_MODES)('a GeoPackage read in parts (%s)', (mode) => {
  let database: DatabaseHandle;
  let catalog: CatalogDb;
  /** Vertices of each county in file order, to place a limit that only the second half breaks. */
  let vertices: number[];

  beforeAll(async () => {
    database = mode === 'postgres' ? await createTestPostgres() : await createTestPGlite();
    catalog = catalogDb(database.db);
    vertices = [];
    for await (const feature of readLayer(FILE)) vertices.push(JSON.stringify(feature.geometry.coordinates).split('],[').length);
  }, 180_000);
  afterAll(async () => {
    await database?.close();
  });

  async function stored(versionId: string) {
    const { rows } = await sql<{ data: Uint8Array }>`select data from catalog.layer_chunks where version_id = ${versionId} order by chunk_no`.execute(catalog);
    return rows.flatMap((row) => decodeFeatures(row.data));
  }

  it('stores the same features in the same order as one reader, with the same count and bounds', async () => {
    const one = await importLayer(catalog, { ...BASE, readers: 1 });
    const two = await importLayer(catalog, { ...BASE, readers: 2 });
    expect(two.features).toBe(COUNTIES);
    expect([two.features, two.bbox]).toEqual([one.features, one.bbox]);
    const [first, second] = [await stored(one.versionId), await stored(two.versionId)];
    expect(second).toHaveLength(COUNTIES);
    expect(second).toEqual(first);
  });

  it('refuses a feature of the second half with the message one reader gives, naming its ordinal in the file', async () => {
    const half = Math.floor(vertices.length / 2);
    const maxVertices = Math.max(...vertices.slice(0, half));
    const firstOver = vertices.findIndex((count) => count > maxVertices);
    expect(firstOver).toBeGreaterThanOrEqual(half);
    const options = { ...BASE, limits: { maxVertices } };
    const inOrder = await refusal(catalog, { ...options, readers: 1 });
    expect(inOrder).toContain(`feature ${firstOver + 1}`);
    expect(await refusal(catalog, { ...options, readers: 2 })).toBe(inOrder);
  });

  it('refuses more features than the limit, and a filter that keeps none, as one reader does', async () => {
    for (const options of [
      { ...BASE, limits: { maxFeatures: COUNTIES - 10 } },
      { ...BASE, where: "NAME = 'Nowhere'" },
    ]) {
      const inOrder = await refusal(catalog, { ...options, readers: 1 });
      expect(await refusal(catalog, { ...options, readers: 2 })).toBe(inOrder);
    }
  });

  it('keeps nothing of a refused import read in parts', async () => {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from catalog.layer_versions where source = 'census_tiger'`.execute(catalog);
    await refusal(catalog, { ...BASE, readers: 2, limits: { maxFeatures: 100 } });
    const after = await sql<{ n: number }>`select count(*)::int as n from catalog.layer_versions where source = 'census_tiger'`.execute(catalog);
    expect(after.rows[0].n).toBe(rows[0].n);
  });
});
