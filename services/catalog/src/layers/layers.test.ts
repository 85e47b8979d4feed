import { createClient, createRouterTransport, ConnectError, Code, type Client } from '@connectrpc/connect';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@landscreen/db';
import { catalogv1 } from '@landscreen/proto';
import { readServiceError } from '@landscreen/rpc';
import { createTestPGlite, createTestPostgres, DATABASE_MODES } from '@landscreen/testing';
import { catalogDb, type CatalogDb } from '../schema.js';
import { createCatalogService } from '../service.js';
import { catalogTestDeps } from '../testing/service-deps.js';
import { layerFiles, pointCollection, type LayerFiles } from '../testing/layer-files.js';
import { importLayer } from './import-layer.js';
import { LayerImportError } from './layer-import-error.js';

// Hand-computed: 0.01° of latitude at 35°N is 1,109.4 m on WGS84; the 1,112 m ±0.5 % holds.
const NORTH_OF_SUBSTATION = { lat: 35.01, lon: -97, id: 'north' };
const DISTANCE = 'nearest_substation_distance_m';

async function rejection(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe.each(DATABASE_MODES)('layer versions and the engine RPC (%s)', (mode) => {
  let database: DatabaseHandle;
  let files: LayerFiles;
  let client: Client<typeof catalogv1.CatalogService>;
  /** The service's view of the database, as the service makes it: what the layer functions take. */
  let catalog: CatalogDb;

  const counts = async () => {
    const { rows } = await sql<{ versions: number; chunks: number }>`
      select (select count(*)::int from catalog.layer_versions) as versions, (select count(*)::int from catalog.layer_chunks) as chunks`.execute(database.db);
    return rows[0];
  };
  const evaluate = (fields: string[], locations = [NORTH_OF_SUBSTATION]) => client.evaluatePoints({ locations, fields });

  beforeAll(async () => {
    database = mode === 'postgres' ? await createTestPostgres() : await createTestPGlite();
    catalog = catalogDb(database.db);
    files = await layerFiles();
    const service = createCatalogService(catalogTestDeps(database.db));
    client = createClient(catalogv1.CatalogService, createRouterTransport(service.routes));
  });
  afterAll(async () => {
    await files?.remove();
    await database?.close();
  });

  it('answers no_coverage for every field of a source with no layer loaded', async () => {
    const { results } = await evaluate([DISTANCE, 'elevation']);
    expect(results[0].answers.map((answer) => [answer.field, answer.value.case, answer.nullReason])).toEqual([
      [DISTANCE, undefined, 'no_coverage'],
      ['elevation', undefined, 'no_coverage'],
    ]);
  });

  it('imports a substations layer and answers the hand-computed distance, typed, with the version it came from', async () => {
    const file = await files.write(
      'substations.geojson',
      pointCollection([
        { lon: -97, lat: 35, properties: { STAT: 'IN SERVICE', max_voltage_kv: 345 } },
        { lon: -96, lat: 35, properties: { STAT: 'PLANNED', max_voltage_kv: 138 } },
      ]),
    );
    const imported = await importLayer(catalog, { source: 'hifld_substations', file, map: 'STAT=status' });
    expect(imported).toMatchObject({ source: 'hifld_substations', features: 2, bbox: [-97, 35, -96, 35] });

    const { results } = await evaluate([DISTANCE, 'nearest_substation_status', 'nearest_substation_max_voltage_kv', 'substations_within_radius_count', 'elevation']);
    expect(results[0].id).toBe('north');
    const [distance, status, voltage, count, elevation] = results[0].answers;
    expect(distance.value.case).toBe('numberValue');
    expect(Math.abs((distance.value.value as number) - 1112) / 1112).toBeLessThan(0.005);
    expect(distance.nullReason).toBe('');
    expect(distance.provenance?.layers).toEqual([expect.objectContaining({ source: 'hifld_substations', layerVersionId: imported.versionId })]);
    expect(status.value).toEqual({ case: 'stringValue', value: 'IN SERVICE' });
    expect(voltage.value).toEqual({ case: 'numberValue', value: 345 });
    expect(count.value).toEqual({ case: 'intValue', value: 1n });
    expect(elevation.nullReason).toBe('no_coverage');
  });

  it('makes a second import current and leaves the first version as it was', async () => {
    const before = await client.listLayers({});
    const first = before.layers.find((layer) => layer.source === 'hifld_substations')!;
    const { rows: firstChunks } = await sql<{ data: Uint8Array }>`
      select data from catalog.layer_chunks where version_id = ${first.id} order by chunk_no`.execute(database.db);

    const file = await files.write('substations-2.geojson', pointCollection([{ lon: -97, lat: 35.02, properties: { status: 'RETIRED' } }]));
    const second = await importLayer(catalog, { source: 'hifld_substations', file, name: 'HIFLD 2026-11' });
    const { results } = await evaluate([DISTANCE, 'nearest_substation_status']);
    expect(results[0].answers[1].value).toEqual({ case: 'stringValue', value: 'RETIRED' });
    expect(results[0].answers[0].provenance?.layers[0].layerVersionId).toBe(second.versionId);

    const after = await client.listLayers({});
    const substations = after.layers.filter((layer) => layer.source === 'hifld_substations');
    expect(substations.map((layer) => [layer.id, layer.name, layer.current])).toEqual([
      [second.versionId, 'HIFLD 2026-11', true],
      [first.id, 'substations.geojson', false],
    ]);
    expect(substations[1]).toEqual({ ...first, current: false });
    const { rows: firstChunksAfter } = await sql<{ data: Uint8Array }>`
      select data from catalog.layer_chunks where version_id = ${first.id} order by chunk_no`.execute(database.db);
    expect(firstChunksAfter.map((row) => Buffer.from(row.data))).toEqual(firstChunks.map((row) => Buffer.from(row.data)));
  });

  it('leaves no version and no chunk behind when a feature in the middle is bad, and names it', async () => {
    const before = await counts();
    // More features than a chunk holds before the bad one, so chunks were written when it fails.
    const points = Array.from({ length: 4_500 }, (_, i) => ({ lon: -100 + i * 0.001, lat: 40 }));
    points[3_000] = { lon: -100, lat: 95 };
    const file = await files.write('bad.geojson', pointCollection(points));
    const error = await rejection(() => importLayer(catalog, { source: 'hifld_substations', file }));
    expect(error).toBeInstanceOf(LayerImportError);
    expect(error.message).toContain('feature 3001 (line 3002)');
    expect(await counts()).toEqual(before);
  });

  it('refuses a feature whose geometry does not fit the source, naming it, and keeps nothing', async () => {
    const before = await counts();
    const file = await files.write(
      'mixed.ndjson',
      [
        JSON.stringify({ type: 'Feature', geometry: { type: 'Point', coordinates: [-97, 35] }, properties: {} }),
        JSON.stringify({ type: 'Feature', geometry: { type: 'LineString', coordinates: [[-97, 35], [-96, 35]] }, properties: {} }),
      ].join('\n'),
    );
    const error = await rejection(() => importLayer(catalog, { source: 'hifld_substations', file }));
    expect(error.message).toBe(`${file}: feature 2 (line 2): a LineString cannot feed hifld_substations, a points source`);
    expect(await counts()).toEqual(before);
  });

  it('names an unknown source or property with a did-you-mean', async () => {
    const file = await files.write('one.geojson', pointCollection([{ lon: -97, lat: 35 }]));
    expect((await rejection(() => importLayer(catalog, { source: 'hifld_substation', file }))).message).toBe(
      'unknown source "hifld_substation" (did you mean "hifld_substations"?)',
    );
    expect((await rejection(() => importLayer(catalog, { source: 'hifld_substations', file, map: 'VOLT=max_voltage' }))).message).toBe(
      '--map VOLT=max_voltage: hifld_substations reads no property "max_voltage" (did you mean "max_voltage_kv"?); it reads name, max_voltage_kv, status',
    );
  });

  it('answers unknown fields with InvalidArgument and a D1 detail with a did-you-mean', async () => {
    const error = ConnectError.from(await rejection(() => evaluate(['nearest_substation_distance'])));
    expect(error.code).toBe(Code.InvalidArgument);
    expect(readServiceError(error).fields.detail).toEqual([
      expect.objectContaining({
        type: 'value_error',
        loc: ['body', 'fields', 0],
        msg: 'Value error, unknown field "nearest_substation_distance" (did you mean "nearest_substation_distance_m"?)',
        ctx: expect.objectContaining({ did_you_mean: 'nearest_substation_distance_m' }),
      }),
    ]);
  });

  it('lists every layer source with its properties, fields and current version', async () => {
    const { sources } = await client.listSources({});
    const substations = sources.find((source) => source.id === 'hifld_substations')!;
    expect(substations.geometry).toBe('points');
    expect(substations.properties.map((property) => property.name)).toEqual(['name', 'max_voltage_kv', 'status']);
    expect(substations.fields).toContain(DISTANCE);
    expect(substations.current?.name).toBe('HIFLD 2026-11');
    const elevation = sources.find((source) => source.id === 'usgs_3dep')!;
    expect([elevation.geometry, elevation.current]).toEqual(['grid', undefined]);
  });
});
