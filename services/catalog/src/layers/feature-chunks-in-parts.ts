// A GeoPackage read by several worker threads at once, each a range of its row ids, so that the
// reading, reprojecting and encoding of a state's layer use every core while this thread stores.
// Chunks are stored as they come, each part numbered from its own base (PART_CHUNKS apart), so
// a version's chunks in chunk_no order are the file's features in row-id order, as one reader
// stores them. Every other format, and a small GeoPackage, is read by one worker.
//
// A part cannot know the ordinal of its features in the file, nor whether the file as a whole is
// empty or over LAYER_MAX_FEATURES. So when a part fails, or the parts' totals are refused, the
// file is read once more by one reader, storing nothing, and its refusal is the import's: the
// same message, naming the same feature, as reading it in order gives. A refused import pays a
// second read; a good one none.

import { availableParallelism } from 'node:os';
import { stat } from 'node:fs/promises';
import { DEFAULT_IMPORT_LIMITS } from '@landscreen/layer-io';
import type { EncodedChunk, FeatureReadRequest, FeatureSummary } from './feature-chunks.js';
import { featureChunksInWorker } from './features-in-worker.js';
import { ImportCancelledError } from './import-cancelled.js';

/** Chunk numbers of part k start at k × PART_CHUNKS: room for 2^26 chunks a part within an int4. */
export const PART_CHUNKS = 1 << 26;
/** Most readers at once: the thread storing and the server want a core too. */
const MAX_READERS = 2;
/** Below this a second worker's start-up costs more than it saves. */
const PARALLEL_FROM_BYTES = 16 * 2 ** 20;

export interface NumberedChunk extends EncodedChunk {
  chunkNo: number;
}

export async function readersFor(request: FeatureReadRequest): Promise<number> {
  if (request.format !== 'gpkg') return 1;
  if (request.readers !== undefined) return Math.max(1, Math.min(request.readers, 4));
  const cores = Math.min(MAX_READERS, availableParallelism());
  return cores > 1 && (await stat(request.file)).size >= PARALLEL_FROM_BYTES ? cores : 1;
}

export async function* featureChunksInParts(request: FeatureReadRequest, signal?: AbortSignal): AsyncGenerator<NumberedChunk, FeatureSummary, undefined> {
  const parts = await readersFor(request);
  if (parts === 1) return yield* numbered(featureChunksInWorker(request, signal), 0);
  // Ends the other parts' workers when one fails: a reader waiting for its next chunk ends only so.
  const stop = new AbortController();
  const stopped = signal === undefined ? stop.signal : AbortSignal.any([signal, stop.signal]);
  const readers = Array.from({ length: parts }, (_, index) => featureChunksInWorker({ ...request, part: { index, of: parts } }, stopped));
  const chunkNos = new Array<number>(parts).fill(0);
  const fractions = new Array<number>(parts).fill(0);
  const summaries: FeatureSummary[] = [];
  const pending = new Map(readers.map((reader, part) => [part, next(reader, part)]));
  const maxFeatures = request.limits?.maxFeatures ?? DEFAULT_IMPORT_LIMITS.maxFeatures;
  let features = 0;
  let refused: unknown = null;
  try {
    while (pending.size > 0) {
      const { part, result } = await Promise.race(pending.values());
      if (result.done) {
        pending.delete(part);
        summaries[part] = result.value;
        continue;
      }
      pending.set(part, next(readers[part], part));
      features += result.value.features;
      if (features > maxFeatures) throw new PartsRefused();
      fractions[part] = result.value.fraction ?? fractions[part];
      const fraction = fractions.reduce((sum, value) => sum + value, 0) / parts;
      yield { ...result.value, fraction, chunkNo: part * PART_CHUNKS + chunkNos[part]++ };
    }
    if (features === 0) throw new PartsRefused();
  } catch (error) {
    if (error instanceof ImportCancelledError || signal?.aborted) throw error;
    refused = error;
  } finally {
    stop.abort();
    await Promise.allSettled(pending.values());
    await Promise.allSettled(readers.map((reader) => reader.return(undefined as never)));
  }
  if (refused !== null) {
    await refusalInOrder(request, signal);
    if (!(refused instanceof PartsRefused)) throw refused;
  }
  return {
    features,
    bbox: mergedBbox(summaries.map((summary) => summary.bbox)),
    crs: summaries[0].crs,
  };
}

/** Thrown where the parts' totals are refused: the reading in order finds the refusal and says it. */
class PartsRefused extends Error {}

async function refusalInOrder(request: FeatureReadRequest, signal?: AbortSignal): Promise<void> {
  const reader = featureChunksInWorker({ ...request, part: undefined }, signal);
  for (let step = await reader.next(); !step.done; step = await reader.next());
}

async function next(reader: AsyncGenerator<EncodedChunk, FeatureSummary, undefined>, part: number) {
  return { part, result: await reader.next() };
}

async function* numbered(chunks: AsyncGenerator<EncodedChunk, FeatureSummary, undefined>, base: number): AsyncGenerator<NumberedChunk, FeatureSummary, undefined> {
  let chunkNo = base;
  try {
    for (;;) {
      const step = await chunks.next();
      if (step.done) return step.value;
      yield { ...step.value, chunkNo: chunkNo++ };
    }
  } finally {
    await chunks.return(undefined as never);
  }
}

function mergedBbox(boxes: ReadonlyArray<[number, number, number, number] | null>): [number, number, number, number] | null {
  let merged: [number, number, number, number] | null = null;
  for (const box of boxes) {
    if (box === null) continue;
    merged = merged === null ? [...box] : [Math.min(merged[0], box[0]), Math.min(merged[1], box[1]), Math.max(merged[2], box[2]), Math.max(merged[3], box[3])];
  }
  return merged;
}
