// The service's side of parcel-index-worker.ts: the stored bytes handed to a worker thread, the
// restored index handed back. Reading a million parcels' index (the keys and record fields
// parsed and sorted, the box tree) then costs this thread only what reading the bytes from the
// database does.

import { startWorker } from '@landscreen/threads';
import { UnusableParcelIndex } from './parcel-index-blob.js';
import { ParcelIndex } from './parcel-index.js';
import type { RestoredParcelIndex } from './restored-parcel-index.js';

export interface RestoreRequest {
  /** The stored index's parts in order, each in an ArrayBuffer of its own (transferred: this thread no longer holds them). */
  parts: Uint8Array[];
  vintageId: string;
}

export type RestoreAnswer = { ok: true; parts: RestoredParcelIndex } | { ok: false; name: string; constructorName: string; message: string };

/**
 * Restores the index from its stored parts in a worker thread, which also joins them (hundreds of
 * megabytes copied there, not here). Unusable bytes throw UnusableParcelIndex, as in-thread.
 */
export async function restoreInWorker(parts: Uint8Array[], vintageId: string): Promise<ParcelIndex> {
  if (parts.some((part) => part.byteOffset !== 0 || part.byteLength !== part.buffer.byteLength)) throw new Error('each stored part must fill an ArrayBuffer of its own');
  const worker = startWorker(new URL('./parcel-index-worker.js', import.meta.url), {
    workerData: { parts, vintageId } satisfies RestoreRequest,
    transferList: parts.map((part) => part.buffer as ArrayBuffer),
  });
  try {
    const answer = await new Promise<RestoreAnswer>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the parcel index worker stopped (exit code ${code}) before answering`)));
    });
    if (answer.ok) return ParcelIndex.fromRestored(answer.parts);
    if (answer.constructorName === 'UnusableParcelIndex') throw new UnusableParcelIndex(answer.message);
    const error = new Error(answer.message);
    error.name = answer.name;
    throw error;
  } finally {
    worker.removeAllListeners();
    // An error after the answer (the thread being ended) has nobody to tell.
    worker.on('error', () => {});
    void worker.terminate();
  }
}
