// One chunk of a prepare over workers, screened and written by this process: the base's chunk
// read a page at a time, each page screened on this process's engine (the current layer versions,
// loaded once and kept across chunks; the same versions as the job's first chunk, or none), the chunk written in one transaction with its done row
// (writePreparedChunk). The fields' provenance is the job's: the first chunk to decide it stores
// it on the job, and every other chunk adopts it, so the vintage's parcels store theirs alike.

import { LayerCache, catalogDb, type LayerCacheOptions } from '@landscreen/catalog-service';
import type { ProcessDatabase } from '@landscreen/db';
import { baseChunkPages, baseOfJob, discoveryDb, settleLayerVersions, settleProvenanceDecision, writePreparedChunk, type ChunkOutcome, type PrepareJob } from '@landscreen/discovery-service';
import type { FaultInjector } from '@landscreen/rpc';
import { inProcessEvaluator } from '../engine-pool.js';
import { fieldSourceOf } from '../prepare-fields.js';
import { PreparedProvenances, screenParcelsAsColumns, type ProvenanceDecision } from '../screen-parcels.js';

export interface ChunkPreparerOptions {
  layerCache?: LayerCacheOptions;
  /** Names this process in the chunks it writes. */
  worker: string;
  /** Tests: `prepare.page` is hit before each page is screened. */
  faults?: FaultInjector;
}

export type PrepareChunk = (job: PrepareJob, chunk: number, onStarted?: () => void) => Promise<ChunkOutcome>;

export function chunkPreparer(db: ProcessDatabase, options: ChunkPreparerOptions): PrepareChunk {
  const layers = new LayerCache(catalogDb(db), options.layerCache);
  const discovery = discoveryDb(db);
  return async (job, chunk, onStarted) => {
    const base = await baseOfJob(discovery, job);
    const { engine, versions } = await layers.current();
    // Every chunk of a vintage screens against one set of layer versions (a layer imported
    // meanwhile fails the prepare, rather than mixing versions within the vintage).
    await settleLayerVersions(discovery, job.vintageId, versions.map((version) => version.id));
    const plan = engine.plan(job.fields);
    const provenances = new PreparedProvenances(plan.fields, fieldSourceOf);
    if (job.provenanceDecision) provenances.adopt(job.provenanceDecision as ProvenanceDecision);
    const context = {
      evaluator: inProcessEvaluator(engine, plan),
      fields: plan.fields,
      baseVintageId: base.vintageId,
      sourceOf: fieldSourceOf,
      provenances,
      onDecided: async (decided: PreparedProvenances) => decided.adopt((await settleProvenanceDecision(discovery, job.vintageId, decided.decision())) as ProvenanceDecision),
    };
    return writePreparedChunk(discovery, {
      job,
      chunk,
      worker: options.worker,
      async *pages() {
        onStarted?.();
        // The prepared fields' facts go to the chunk's index as columns; the base's own are left out of the records.
        for await (const page of baseChunkPages(discovery, discovery, base, chunk, provenances.preparedFields)) {
          await options.faults?.('prepare.page');
          yield await screenParcelsAsColumns(context, page);
        }
      },
    });
  };
}
