// A vintage written a chunk at a time by any number of processes (a prepare spread over workers).
// Opening it creates the vintage ('loading', never current), its table and a job row; each chunk
// is written in one transaction that holds an advisory lock on the chunk (so two live workers
// never write it at once; a dead worker's lock goes with its connection) and inserts the chunk's
// done row (so a chunk written once is never written again). Finishing it — once every chunk has
// its row — attaches the table, stores the vintage's lists and makes it current, in one
// transaction. PostgreSQL holds all of it: any process can finish or abandon the job.

import type { Selectable } from 'kysely';
import { liftTimeouts } from '@landscreen/db';
import type { ParcelRecord } from '@landscreen/parcel-io';
import type { FieldProvenance } from '../field-provenance.js';
import { copyParcelIndex } from '../locate/copy-parcel-index.js';
import { saveColumnChunk, storedChunks } from '../ranking/column-store.js';
import { VintageIndexBuilder } from '../ranking/vintage-index.js';
import type { DiscoveryDb, PrepareJobsTable } from '../schema.js';
import { storedBase, storedBaseOf, type StoredBase } from './base-chunk.js';
import { insertBatch } from './import-vintage.js';
import { attachVintageTable, createVintageTable, dropVintageTable, vintageTable } from './vintage-table.js';

export interface PrepareJob {
  vintageId: string;
  baseVintageId: string;
  marketId: string;
  fields: string[];
  /** The base's stored chunks: the chunks the vintage is written in, by the same numbers. */
  chunks: number;
  /** What the first chunk decided of the fields' provenance (the preparing code's format), once decided. */
  provenanceDecision: unknown;
  /** Why a worker gave the job up, if it did. */
  error: string | null;
}

/** A chunk would screen against other layer versions than the job's first chunk did: the prepare fails, never mixes them. */
export class PrepareLayersChanged extends Error {
  constructor(readonly pinned: readonly string[], readonly current: readonly string[]) {
    const added = current.filter((id) => !pinned.includes(id));
    const gone = pinned.filter((id) => !current.includes(id));
    super(
      `the layers changed while the prepare ran (now current: ${added.join(', ') || 'none new'}; no longer current: ${gone.join(', ') || 'none'}); ` +
        'its chunks would mix layer versions, so it was given up: run prepare again',
    );
  }
}

/** The columns a PrepareJob is read from. */
const JOB_COLUMNS = ['vintage_id', 'base_vintage_id', 'market_id', 'fields', 'chunks', 'provenance_decision', 'error'] as const;

type JobRow = Pick<Selectable<PrepareJobsTable>, (typeof JOB_COLUMNS)[number]>;

const jobOf = (row: JobRow): PrepareJob => ({
  vintageId: row.vintage_id,
  baseVintageId: row.base_vintage_id,
  marketId: row.market_id,
  fields: row.fields,
  chunks: row.chunks,
  provenanceDecision: row.provenance_decision,
  error: row.error,
});

/** A new loading vintage of the market's current one, to be written chunk by chunk: the job and the base's chunk numbers. */
export async function openPreparedVintage(
  db: DiscoveryDb,
  options: { market: string; source: string; fields: string[] },
): Promise<{ job: PrepareJob; base: StoredBase; chunks: number[] }> {
  const base = await storedBase(db, options.market);
  const chunks = await storedChunks(db, base.vintageId);
  const job = await db.transaction().execute(async (trx) => {
    const vintage = await trx
      .insertInto('vintages')
      .values({ market_id: base.marketId, status: 'loading', source: options.source, completed_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    await createVintageTable(trx, vintage.id);
    const row = await trx
      .insertInto('prepare_jobs')
      .values({ vintage_id: vintage.id, base_vintage_id: base.vintageId, market_id: base.marketId, fields: options.fields, chunks: chunks.length })
      .returning(JOB_COLUMNS)
      .executeTakeFirstOrThrow();
    return jobOf(row);
  });
  return { job, base, chunks };
}

/** The job writing `vintageId`, or undefined once it is finished or abandoned. */
export async function preparedJob(db: DiscoveryDb, vintageId: string): Promise<PrepareJob | undefined> {
  const row = await db.selectFrom('prepare_jobs').select(JOB_COLUMNS).where('vintage_id', '=', vintageId).executeTakeFirst();
  return row && jobOf(row);
}

/** The job's base vintage, as its chunks are read. */
export const baseOfJob = (db: DiscoveryDb, job: PrepareJob) => storedBaseOf(db, job.marketId, job.baseVintageId);

/** Stores `decision` unless one is stored; the stored one (the first chunk's to get here) either way. */
export async function settleProvenanceDecision(db: DiscoveryDb, vintageId: string, decision: unknown): Promise<unknown> {
  await db
    .updateTable('prepare_jobs')
    .set((eb) => ({ provenance_decision: eb.cast(eb.val(JSON.stringify(decision)), 'jsonb') }))
    .where('vintage_id', '=', vintageId)
    .where('provenance_decision', 'is', null)
    .execute();
  const row = await db.selectFrom('prepare_jobs').select('provenance_decision as decision').where('vintage_id', '=', vintageId).executeTakeFirst();
  if (!row) throw new PreparedVintageGone(vintageId);
  return row.decision;
}

/**
 * Stores the layer versions a chunk screened against unless some are stored; refuses with
 * PrepareLayersChanged when the stored ones (the first chunk's to get here) are not these.
 */
export async function settleLayerVersions(db: DiscoveryDb, vintageId: string, versionIds: readonly string[]): Promise<void> {
  const ids = [...versionIds].sort();
  await db.updateTable('prepare_jobs').set({ layer_versions: ids }).where('vintage_id', '=', vintageId).where('layer_versions', 'is', null).execute();
  const row = await db
    .selectFrom('prepare_jobs')
    .select('layer_versions as pinned')
    .where('vintage_id', '=', vintageId)
    // Set by the update above if no chunk had set it.
    .$narrowType<{ pinned: string[] }>()
    .executeTakeFirst();
  if (!row) throw new PreparedVintageGone(vintageId);
  const pinned = row.pinned;
  if (pinned.length !== ids.length || pinned.some((id, i) => id !== ids[i])) throw new PrepareLayersChanged(pinned, ids);
}

/** Marks the job failed (its coordinator abandons it). */
export async function failPreparedJob(db: DiscoveryDb, vintageId: string, error: string): Promise<void> {
  await db.updateTable('prepare_jobs').set({ error }).where('vintage_id', '=', vintageId).where('error', 'is', null).execute();
}

/** How many of the job's chunks are written. */
export async function preparedChunksDone(db: DiscoveryDb, vintageId: string): Promise<number> {
  const row = await db
    .selectFrom('prepare_chunks_done')
    .select((eb) => eb.fn.countAll<number>().as('done'))
    .where('vintage_id', '=', vintageId)
    .executeTakeFirstOrThrow();
  return row.done;
}

/** The job is gone: finished, or abandoned by its coordinator. */
export class PreparedVintageGone extends Error {
  constructor(vintageId: string) {
    super(`the prepare of vintage ${vintageId} is finished or abandoned`);
    this.name = 'PreparedVintageGone';
  }
}

export type ChunkOutcome = 'written' | 'already written' | 'busy' | 'gone';

/**
 * A page of a chunk whose prepared facts come as columns (the engine's answers), not in each
 * record's `derived`: `writeFacts` hands each non-null fact over by the record's index in
 * `records` and the field's in `fields`.
 */
export interface ColumnarPage {
  records: ParcelRecord[];
  fields: readonly string[];
  writeFacts(set: (record: number, field: number, value: unknown) => void): void;
}

/**
 * Writes chunk `chunk` of the job's vintage from `pages` (the base's chunk with the prepared
 * facts), in one transaction: its rows, its chunk of the ranking index, its done row. 'busy':
 * another live process is writing it; 'already written': it was, by someone; 'gone': the job
 * is no more. Pages are pulled only once the chunk is this transaction's to write.
 */
export async function writePreparedChunk(
  db: DiscoveryDb,
  options: { job: PrepareJob; chunk: number; worker: string; pages: () => AsyncIterable<ParcelRecord[] | ColumnarPage> },
): Promise<ChunkOutcome> {
  const { job, chunk } = options;
  return db.transaction().execute(async (trx) => {
    await liftTimeouts(trx);
    // The chunk's name hashed to PostgreSQL's 64-bit lock key.
    const lock = await trx
      .selectNoFrom((eb) =>
        eb.fn<boolean>('pg_try_advisory_xact_lock', [eb.fn('hashtextextended', [eb.val(`prepare:${job.vintageId}:${chunk}`), eb.lit(0)])]).as('held'),
      )
      .executeTakeFirstOrThrow();
    if (!lock.held) return 'busy';
    const state = await trx
      .selectNoFrom((eb) => [
        eb.exists(eb.selectFrom('prepare_jobs').select(eb.lit(1).as('one')).where('vintage_id', '=', job.vintageId)).as('job'),
        eb
          .exists(eb.selectFrom('prepare_chunks_done').select(eb.lit(1).as('one')).where('vintage_id', '=', job.vintageId).where('chunk', '=', chunk))
          .as('done'),
      ])
      .executeTakeFirstOrThrow();
    if (!state.job) return 'gone';
    if (state.done) return 'already written';
    const table = vintageTable(job.vintageId);
    const index = new VintageIndexBuilder(job.vintageId);
    const freeFields = new Set<string>();
    const derivedFields = new Set<string>();
    let parcels = 0;
    // A page is written while the next is read and screened.
    let inFlight: Promise<void> = Promise.resolve();
    for await (const item of options.pages()) {
      const page = Array.isArray(item) ? item : item.records;
      const firstRow = index.size;
      for (const record of page) {
        for (const field of record.freeFacts.keys()) freeFields.add(field);
        for (const field of record.derived.keys()) derivedFields.add(field);
        index.add(record.parcelKey, record.typed as unknown as Record<string, unknown>, record.freeFacts, record.derived);
      }
      if (!Array.isArray(item)) {
        const fields = item.fields;
        for (const field of fields) derivedFields.add(field);
        item.writeFacts((record, field, value) => index.setFact(firstRow + record, fields[field]!, value));
      }
      parcels += page.length;
      await inFlight;
      inFlight = insertBatch(trx, table, job.vintageId, page);
      inFlight.catch(() => {}); // observed by the next await
    }
    await inFlight;
    const built = index.build();
    // A vintage of one chunk stores its key order, as an import's does.
    await saveColumnChunk(trx, job.vintageId, chunk, { keys: built.keys, columns: built.entries(), rowsByKey: job.chunks === 1 ? built.rowsByKey : undefined });
    await trx
      .insertInto('prepare_chunks_done')
      .values({ vintage_id: job.vintageId, chunk, parcels, free_fact_fields: [...freeFields], derived_fields: [...derivedFields], worker: options.worker })
      .execute();
    return 'written';
  });
}

/**
 * Makes the job's vintage current once every chunk is written: attaches its table, copies the
 * base's parcel index, stores the field lists and `fieldProvenance` merged over the base's, and
 * deletes the job. One transaction; throws when chunks are missing.
 */
export async function finishPreparedVintage(db: DiscoveryDb, job: PrepareJob, fieldProvenance: FieldProvenance | null): Promise<{ parcels: number }> {
  const base = await baseOfJob(db, job);
  return db.transaction().execute(async (trx) => {
    await liftTimeouts(trx);
    const locked = await trx.selectFrom('prepare_jobs').select('vintage_id').where('vintage_id', '=', job.vintageId).forUpdate().executeTakeFirst();
    if (!locked) throw new PreparedVintageGone(job.vintageId);
    const rows = await trx
      .selectFrom('prepare_chunks_done')
      .select(['parcels', 'free_fact_fields', 'derived_fields'])
      .where('vintage_id', '=', job.vintageId)
      .execute();
    if (rows.length !== job.chunks) throw new Error(`vintage ${job.vintageId} has ${rows.length} of its ${job.chunks} chunks written`);
    const parcels = rows.reduce((sum, row) => sum + row.parcels, 0);
    const union = (lists: string[][]) => [...new Set(lists.flat())].sort();
    await attachVintageTable(trx, job.vintageId);
    await copyParcelIndex(trx, job.baseVintageId, job.vintageId);
    const merged = { ...(base.fieldProvenance ?? {}), ...(fieldProvenance ?? {}) };
    await trx
      .updateTable('vintages')
      .set((eb) => ({
        status: 'ready',
        parcel_count: parcels,
        free_fact_fields: union(rows.map((row) => row.free_fact_fields)),
        derived_fields: union(rows.map((row) => row.derived_fields)),
        field_provenance: eb.cast<FieldProvenance | null>(eb.val(Object.keys(merged).length === 0 ? null : JSON.stringify(merged)), 'jsonb'),
        completed_at: new Date(),
      }))
      .where('id', '=', job.vintageId)
      .execute();
    await trx.updateTable('markets').set({ current_vintage_id: job.vintageId }).where('id', '=', job.marketId).execute();
    await trx.deleteFrom('prepare_jobs').where('vintage_id', '=', job.vintageId).execute();
    return { parcels };
  });
}

/** Undoes an unfinished job: its table, its stored chunks and its vintage go; the base stays current. */
export async function abandonPreparedVintage(db: DiscoveryDb, vintageId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await liftTimeouts(trx);
    const vintage = await trx.selectFrom('vintages').select('status').where('id', '=', vintageId).forUpdate().executeTakeFirst();
    if (vintage?.status !== 'loading') return;
    await dropVintageTable(trx, vintageId);
    await trx.deleteFrom('vintages').where('id', '=', vintageId).execute();
  });
}
