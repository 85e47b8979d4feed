// A prepared vintage's job, as the rows PostgreSQL keeps of it: the first decision of a chunk is
// the job's, a chunk is written once (and not while another transaction holds it), finishing makes
// the vintage current with its base's parcel index under its own id, abandoning leaves nothing.

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@landscreen/db';
import { toParcelRecord, type ParcelRecord } from '@landscreen/parcel-io';
import { createTestPGlite, createTestPostgres } from '@landscreen/testing';
import { discoveryDb, type DiscoveryDb } from '../schema.js';
import { baseChunkPages } from './base-chunk.js';
import { importVintage } from './import-vintage.js';
import {
  abandonPreparedVintage,
  baseOfJob,
  failPreparedJob,
  finishPreparedVintage,
  openPreparedVintage,
  PrepareLayersChanged,
  preparedChunksDone,
  PreparedVintageGone,
  preparedJob,
  settleLayerVersions,
  settleProvenanceDecision,
  writePreparedChunk,
} from './prepared-vintage.js';
import { vintageTable } from './vintage-table.js';

const PARCELS = 5;

describe.each([
  ['pglite', createTestPGlite],
  ['postgres', createTestPostgres],
] as const)('a prepared vintage on %s', (mode, open) => {
  let database: DatabaseHandle;
  let db: DiscoveryDb;
  let baseId: string;

  beforeAll(async () => {
    database = await open();
    db = discoveryDb(database.db);
    const records = Array.from({ length: PARCELS }, (_, i) =>
      toParcelRecord(
        { line: i + 1, geometry: { type: 'Point', coordinates: [-97 + i / 100, 35] }, properties: { parcel_key: `k${i}`, acres: i, zoning: 'ag' } },
        'prep-tx',
      ),
    );
    baseId = (await importVintage(db, { market: 'prep-tx', source: 'test', records })).vintageId;
  });
  afterAll(() => database?.close());

  const currentVintage = async () =>
    (await db.selectFrom('markets').select('current_vintage_id').where('slug', '=', 'prep-tx').executeTakeFirstOrThrow()).current_vintage_id;
  const tableExists = async (vintageId: string) =>
    (await sql<{ found: string | null }>`select to_regclass(${vintageTable(vintageId)})::text as found`.execute(database.db)).rows[0]!.found !== null;

  it('keeps the first decision, writes each chunk once, and finishes current with the base parcel index under its id', async () => {
    const { job, base, chunks } = await openPreparedVintage(db, { market: 'prep-tx', source: 'prepare', fields: ['f1', 'f2'] });
    expect(job).toEqual({ vintageId: job.vintageId, baseVintageId: baseId, marketId: base.marketId, fields: ['f1', 'f2'], chunks: 1, provenanceDecision: null, error: null });
    expect(chunks).toEqual([0]);
    expect(await preparedJob(db, job.vintageId)).toEqual(job);

    // An array decision stays JSON (not a PostgreSQL array); a later one does not replace it.
    expect(await settleProvenanceDecision(db, job.vintageId, [{ field: 'f1' }])).toEqual([{ field: 'f1' }]);
    expect(await settleProvenanceDecision(db, job.vintageId, { other: true })).toEqual([{ field: 'f1' }]);
    await settleLayerVersions(db, job.vintageId, ['v2', 'v1']);
    await settleLayerVersions(db, job.vintageId, ['v1', 'v2']);
    await expect(settleLayerVersions(db, job.vintageId, ['v1', 'v3'])).rejects.toBeInstanceOf(PrepareLayersChanged);

    // Read before the chunk's transaction: PGlite has one connection, which that transaction holds.
    const basePages: ParcelRecord[][] = [];
    for await (const page of baseChunkPages(db, db, base, 0)) basePages.push(page);
    expect(basePages.flat().map((record) => record.parcelKey)).toEqual(Array.from({ length: PARCELS }, (_, i) => `k${i}`));
    const pages = async function* () {
      yield* basePages;
    };
    if (mode === 'postgres') {
      // Another live process holds the chunk: this one leaves it.
      let release!: () => void;
      let held!: () => void;
      const heldNow = new Promise<void>((resolve) => (held = resolve));
      const holder = db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtextextended(${`prepare:${job.vintageId}:0`}, 0))`.execute(trx);
        held();
        await new Promise<void>((resolve) => (release = resolve));
      });
      await heldNow;
      expect(await writePreparedChunk(db, { job, chunk: 0, worker: 'w2', pages })).toBe('busy');
      release();
      await holder;
    }
    expect(await preparedChunksDone(db, job.vintageId)).toBe(0);
    expect(await writePreparedChunk(db, { job, chunk: 0, worker: 'w1', pages })).toBe('written');
    expect(await writePreparedChunk(db, { job, chunk: 0, worker: 'w1', pages })).toBe('already written');
    expect(await preparedChunksDone(db, job.vintageId)).toBe(1);
    expect(await db.selectFrom('prepare_chunks_done').select(['parcels', 'worker']).where('vintage_id', '=', job.vintageId).execute()).toEqual([{ parcels: PARCELS, worker: 'w1' }]);

    expect(await finishPreparedVintage(db, job, { f1: { source: 'layer' } } as never)).toEqual({ parcels: PARCELS });
    expect(await currentVintage()).toBe(job.vintageId);
    const vintage = await db.selectFrom('vintages').select(['status', 'parcel_count', 'free_fact_fields', 'field_provenance']).where('id', '=', job.vintageId).executeTakeFirstOrThrow();
    expect(vintage).toMatchObject({ status: 'ready', parcel_count: PARCELS, field_provenance: { f1: { source: 'layer' } } });
    expect(vintage.free_fact_fields).toEqual((await baseOfJob(db, job)).freeFactFields);
    expect(await db.selectFrom('parcels').select('parcel_key').where('vintage_id', '=', job.vintageId).orderBy('parcel_key').execute()).toEqual(
      Array.from({ length: PARCELS }, (_, i) => ({ parcel_key: `k${i}` })),
    );

    const shapes = async (vintageId: string) =>
      db.selectFrom('vintage_parcel_shapes').select(['part', 'data']).where('vintage_id', '=', vintageId).orderBy('part').execute();
    const [baseShapes, copied] = [await shapes(baseId), await shapes(job.vintageId)];
    expect(baseShapes.length).toBeGreaterThan(0);
    expect(copied.map((row) => row.part)).toEqual(baseShapes.map((row) => row.part));
    const header = Buffer.from(copied[0]!.data).subarray(0, 200).toString('latin1');
    expect(header).toContain(`{"vintageId":"${job.vintageId}"`);
    expect(Buffer.from(copied[0]!.data).toString('latin1').replace(job.vintageId, baseId)).toBe(Buffer.from(baseShapes[0]!.data).toString('latin1'));

    expect(await preparedJob(db, job.vintageId)).toBeUndefined();
    expect(await writePreparedChunk(db, { job, chunk: 0, worker: 'w1', pages })).toBe('gone');
    await expect(settleProvenanceDecision(db, job.vintageId, {})).rejects.toBeInstanceOf(PreparedVintageGone);
    await expect(finishPreparedVintage(db, job, null)).rejects.toBeInstanceOf(PreparedVintageGone);
  });

  it('keeps the first error, and abandoning leaves no vintage, table or job, the base current', async () => {
    const before = await currentVintage();
    const { job } = await openPreparedVintage(db, { market: 'prep-tx', source: 'prepare', fields: ['f1'] });
    expect(await tableExists(job.vintageId)).toBe(true);
    await failPreparedJob(db, job.vintageId, 'first');
    await failPreparedJob(db, job.vintageId, 'second');
    expect((await preparedJob(db, job.vintageId))?.error).toBe('first');
    await abandonPreparedVintage(db, job.vintageId);
    expect(await tableExists(job.vintageId)).toBe(false);
    expect(await db.selectFrom('vintages').select('id').where('id', '=', job.vintageId).execute()).toEqual([]);
    expect(await preparedJob(db, job.vintageId)).toBeUndefined();
    expect(await currentVintage()).toBe(before);
    // A ready vintage is not abandoned.
    await abandonPreparedVintage(db, before!);
    expect(await tableExists(before!)).toBe(true);
    expect(await db.selectFrom('vintages').select('status').where('id', '=', before!).executeTakeFirstOrThrow()).toEqual({ status: 'ready' });
  });
});
