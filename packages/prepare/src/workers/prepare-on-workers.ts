// `landscreen prepare --workers`: the market's prepare spread over `serve --prepare-worker`
// processes. This process opens the vintage (loading, not current) and its job in PostgreSQL,
// publishes one event per chunk of the base on the JetStream work queue, follows the chunks'
// done rows (progress), and once every chunk is written makes the vintage current in one
// transaction. It holds no layer and no parcel. Stopped or failed, it abandons the vintage: the
// base stays current, and chunk events still queued find no job and are acked unwritten.

import { setTimeout as sleep } from 'node:timers/promises';
import { catalogDb, listVersions } from '@landscreen/catalog-service';
import type { ProcessDatabase } from '@landscreen/db';
import {
  abandonPreparedVintage,
  discoveryDb,
  finishPreparedVintage,
  openPreparedVintage,
  preparedChunksDone,
  preparedJob,
  PreparedVintageGone,
  type BaseVintage,
} from '@landscreen/discovery-service';
import type { EventBus } from '@landscreen/events';
import { Engine } from '@landscreen/point-engine';
import { analyzeBaseVintage } from '../analyze-base.js';
import type { PrepareResult } from '../prepare-market.js';
import { fieldSourceOf, preparedFields } from '../prepare-fields.js';
import { PreparedProvenances, type ProvenanceDecision } from '../screen-parcels.js';
import { chunkEventId, PREPARE_CHUNK_SUBJECT, PREPARE_STREAM, PREPARE_SUBJECTS } from './subjects.js';

export interface ChunkProgress {
  chunks: number;
  total: number;
}

export interface PrepareOnWorkersOptions {
  market: string;
  fields?: string[];
  preset?: string;
  bus: EventBus;
  /** Called once the fields, the base and its chunks are known, before any chunk is published. */
  onStart?(start: { fields: string[]; uncovered: string[]; base: BaseVintage; vintageId: string; chunks: number }): void;
  /** Called after each look at the chunks written. */
  onProgress?(progress: ChunkProgress): void;
  /** Aborted: the vintage is abandoned. */
  signal?: AbortSignal;
  /** How often the chunks written are counted (default 500 ms). */
  pollMs?: number;
}

export async function prepareOnWorkers(db: ProcessDatabase, options: PrepareOnWorkersOptions): Promise<PrepareResult> {
  const loaded = new Set((await listVersions(catalogDb(db))).map((version) => version.source));
  const { fields, uncovered } = preparedFields({ fields: options.fields, preset: options.preset }, loaded);
  await analyzeBaseVintage(db, options.market);
  const discovery = discoveryDb(db);
  const { job, base, chunks } = await openPreparedVintage(discovery, { market: options.market, source: 'prepare', fields: [...new Engine().plan(fields).fields] });
  try {
    options.onStart?.({ fields, uncovered, base, vintageId: job.vintageId, chunks: chunks.length });
    await options.bus.ensureStream(PREPARE_STREAM, PREPARE_SUBJECTS);
    for (const chunk of chunks) await options.bus.publish(PREPARE_CHUNK_SUBJECT, { vintage_id: job.vintageId, chunk }, { id: chunkEventId(job.vintageId, chunk) });
    for (;;) {
      options.signal?.throwIfAborted();
      const current = await preparedJob(discovery, job.vintageId);
      if (!current) throw new PreparedVintageGone(job.vintageId);
      if (current.error) throw new Error(`a prepare worker gave up: ${current.error}`);
      const done = await preparedChunksDone(discovery, job.vintageId);
      options.onProgress?.({ chunks: done, total: chunks.length });
      if (done === chunks.length) {
        const { parcels } = await finishPreparedVintage(discovery, current, fieldProvenanceOf(current.fields, current.provenanceDecision));
        return { marketId: base.marketId, vintageId: job.vintageId, baseVintageId: base.vintageId, parcels, fields };
      }
      await sleep(options.pollMs ?? 500, undefined, { signal: options.signal });
    }
  } catch (error) {
    await abandonPreparedVintage(discovery, job.vintageId).catch(() => {});
    throw options.signal?.aborted ? (options.signal.reason ?? error) : error;
  }
}

/** The vintage's provenance per field from the job's decision (none decided: no parcel was located). */
function fieldProvenanceOf(fields: string[], decision: unknown) {
  if (!decision) return null;
  const provenances = new PreparedProvenances(fields, fieldSourceOf);
  provenances.adopt(decision as ProvenanceDecision);
  return provenances.fieldProvenance();
}
