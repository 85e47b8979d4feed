// A vintage written a chunk at a time by any number of processes (a prepare spread over workers).
// Opening it creates the vintage ('loading', never current), its table and a job row; each chunk
// is written in one transaction that holds an advisory lock on the chunk (so two live workers
// never write it at once; a dead worker's lock goes with its connection) and inserts the chunk's
// done row (so a chunk written once is never written again). Finishing it — once every chunk has
// its row — attaches the table, stores the vintage's lists and makes it current, in one
// transaction. PostgreSQL holds all of it: any process can finish or abandon the job.

import { sql } from 'kysely';
import { liftTimeouts } from '@landscreen/db';
import type { ParcelRecord } from '@landscreen/parcel-io';
import type { FieldProvenance } from '../field-provenance.js';
import { copyParcelIndex } from '../locate/copy-parcel-index.js';
import { saveColumnChunk, storedChunks } from '../ranking/column-store.js';
import { VintageIndexBuilder } from '../ranking/vintage-index.js';
import type { DiscoveryDb } from '../schema.js';
import { storedBase, storedBaseOf, type StoredBase } from './base-chunk.js';
import { createVintageTable, insertBatch, vintageTable } from './import-vintage.js';

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

interface JobRow {
  vintage_id: string;
  base_vintage_id: string;
  market_id: string;
  fields: string[];
  chunks: number;
  provenance_decision: unknown;
  error: string | null;
}

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
    const { rows } = await sql<JobRow>`
      insert into discovery.prepare_jobs (vintage_id, base_vintage_id, market_id, fields, chunks)
      values (${vintage.id}, ${base.vintageId}, ${base.marketId}, ${options.fields}::text[], ${chunks.length})
      returning vintage_id::text, base_vintage_id::text, market_id::text, fields, chunks, provenance_decision, error`.execute(trx);
    return jobOf(rows[0]!);
  });
  return { job, base, chunks };
}

/** The job writing `vintageId`, or undefined once it is finished or abandoned. */
export async function preparedJob(db: DiscoveryDb, vintageId: string): Promise<PrepareJob | undefined> {
  const { rows } = await sql<JobRow>`
    select vintage_id::text, base_vintage_id::text, market_id::text, fields, chunks, provenance_decision, error
    from discovery.prepare_jobs where vintage_id = ${vintageId}`.execute(db);
  return rows[0] && jobOf(rows[0]);
}

/** The job's base vintage, as its chunks are read. */
export const baseOfJob = (db: DiscoveryDb, job: PrepareJob) => storedBaseOf(db, job.marketId, job.baseVintageId);

/** Stores `decision` unless one is stored; the stored one (the first chunk's to get here) either way. */
export async function settleProvenanceDecision(db: DiscoveryDb, vintageId: string, decision: unknown): Promise<unknown> {
  await sql`update discovery.prepare_jobs set provenance_decision = ${JSON.stringify(decision)}::jsonb
            where vintage_id = ${vintageId} and provenance_decision is null`.execute(db);
  const { rows } = await sql<{ decision: unknown }>`select provenance_decision as decision from discovery.prepare_jobs where vintage_id = ${vintageId}`.execute(db);
  if (!rows[0]) throw new PreparedVintageGone(vintageId);
  return rows[0].decision;
}

/**
 * Stores the layer versions a chunk screened against unless some are stored; refuses with
 * PrepareLayersChanged when the stored ones (the first chunk's to get here) are not these.
 */
export async function settleLayerVersions(db: DiscoveryDb, vintageId: string, versionIds: readonly string[]): Promise<void> {
  const ids = [...versionIds].sort();
  await sql`update discovery.prepare_jobs set layer_versions = ${ids}::text[]
            where vintage_id = ${vintageId} and layer_versions is null`.execute(db);
  const { rows } = await sql<{ pinned: string[] }>`select layer_versions as pinned from discovery.prepare_jobs where vintage_id = ${vintageId}`.execute(db);
  if (!rows[0]) throw new PreparedVintageGone(vintageId);
  const pinned = rows[0].pinned;
  if (pinned.length !== ids.length || pinned.some((id, i) => id !== ids[i])) throw new PrepareLayersChanged(pinned, ids);
}

/** Marks the job failed (its coordinator abandons it). */
export async function failPreparedJob(db: DiscoveryDb, vintageId: string, error: string): Promise<void> {
  await sql`update discovery.prepare_jobs set error = ${error} where vintage_id = ${vintageId} and error is null`.execute(db);
}

/** How many of the job's chunks are written. */
export async function preparedChunksDone(db: DiscoveryDb, vintageId: string): Promise<number> {
  const { rows } = await sql<{ done: number }>`select count(*)::int as done from discovery.prepare_chunks_done where vintage_id = ${vintageId}`.execute(db);
  return rows[0]!.done;
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
    const { rows: lock } = await sql<{ held: boolean }>`
      select pg_try_advisory_xact_lock(hashtextextended(${`prepare:${job.vintageId}:${chunk}`}, 0)) as held`.execute(trx);
    if (!lock[0]!.held) return 'busy';
    const { rows: state } = await sql<{ job: boolean; done: boolean }>`
      select exists (select 1 from discovery.prepare_jobs where vintage_id = ${job.vintageId}) as job,
             exists (select 1 from discovery.prepare_chunks_done where vintage_id = ${job.vintageId} and chunk = ${chunk}) as done`.execute(trx);
    if (!state[0]!.job) return 'gone';
    if (state[0]!.done) return 'already written';
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
    await sql`
      insert into discovery.prepare_chunks_done (vintage_id, chunk, parcels, free_fact_fields, derived_fields, worker)
      values (${job.vintageId}, ${chunk}, ${parcels}, ${[...freeFields]}::text[], ${[...derivedFields]}::text[], ${options.worker})`.execute(trx);
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
    const { rows: locked } = await sql<{ id: string }>`select vintage_id as id from discovery.prepare_jobs where vintage_id = ${job.vintageId} for update`.execute(trx);
    if (!locked[0]) throw new PreparedVintageGone(job.vintageId);
    const { rows } = await sql<{ parcels: number; free_fact_fields: string[]; derived_fields: string[] }>`
      select parcels, free_fact_fields, derived_fields from discovery.prepare_chunks_done where vintage_id = ${job.vintageId}`.execute(trx);
    if (rows.length !== job.chunks) throw new Error(`vintage ${job.vintageId} has ${rows.length} of its ${job.chunks} chunks written`);
    const parcels = rows.reduce((sum, row) => sum + row.parcels, 0);
    const union = (lists: string[][]) => [...new Set(lists.flat())].sort();
    await sql.raw(`alter table discovery.parcels attach partition ${vintageTable(job.vintageId)} for values in ('${job.vintageId}')`).execute(trx);
    await copyParcelIndex(trx, job.baseVintageId, job.vintageId);
    const merged = { ...(base.fieldProvenance ?? {}), ...(fieldProvenance ?? {}) };
    await trx
      .updateTable('vintages')
      .set({
        status: 'ready',
        parcel_count: parcels,
        free_fact_fields: union(rows.map((row) => row.free_fact_fields)),
        derived_fields: union(rows.map((row) => row.derived_fields)),
        field_provenance: Object.keys(merged).length === 0 ? null : sql<FieldProvenance>`${JSON.stringify(merged)}::jsonb`,
        completed_at: new Date(),
      })
      .where('id', '=', job.vintageId)
      .execute();
    await trx.updateTable('markets').set({ current_vintage_id: job.vintageId }).where('id', '=', job.marketId).execute();
    await sql`delete from discovery.prepare_jobs where vintage_id = ${job.vintageId}`.execute(trx);
    return { parcels };
  });
}

/** Undoes an unfinished job: its table, its stored chunks and its vintage go; the base stays current. */
export async function abandonPreparedVintage(db: DiscoveryDb, vintageId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await liftTimeouts(trx);
    const { rows } = await sql<{ status: string }>`select status from discovery.vintages where id = ${vintageId} for update`.execute(trx);
    if (rows[0]?.status !== 'loading') return;
    await sql.raw(`drop table if exists ${vintageTable(vintageId)}`).execute(trx);
    await sql`delete from discovery.vintages where id = ${vintageId}`.execute(trx);
  });
}
