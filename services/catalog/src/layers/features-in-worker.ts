// The importing thread's side of the feature-reading worker: the file's encoded chunks as an
// async generator, read in a worker thread (read-features-worker.ts). Ending the generator early
// (a failed insert, a cancelled import) ends the worker, and with it the reading of the file.

import { startWorker } from '@landscreen/threads';
import type { EncodedChunk, FeatureReadRequest, FeatureSummary } from './feature-chunks.js';
import type { CreditMessage, WorkerInput, WorkerMessage } from './feature-chunks-protocol.js';
import { ImportCancelledError } from './import-cancelled.js';
import { LayerImportError } from './layer-import-error.js';

/** Chunks the reader may be ahead of the inserts: enough to keep both threads busy. */
const CHUNKS_AHEAD = 4;

export async function* featureChunksInWorker(request: FeatureReadRequest, signal?: AbortSignal): AsyncGenerator<EncodedChunk, FeatureSummary, undefined> {
  signal?.throwIfAborted();
  const worker = startWorker(new URL('./read-features-worker.js', import.meta.url), {
    workerData: { request, credits: CHUNKS_AHEAD } satisfies WorkerInput,
  });
  const queue: Array<WorkerMessage | Error> = [];
  let wake: (() => void) | null = null;
  const push = (item: WorkerMessage | Error) => {
    queue.push(item);
    wake?.();
    wake = null;
  };
  worker.on('message', (message: WorkerMessage) => push(message));
  worker.on('error', (error) => push(error));
  worker.on('exit', (code) => push(new Error(`the layer reader stopped (exit code ${code}) before the end of ${request.file}`)));
  const onAbort = () => push(new ImportCancelledError());
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const item = queue.shift()!;
      if (item instanceof Error) throw item;
      if (item.kind === 'error') throw readerError(item);
      if (item.kind === 'done') return item.summary;
      worker.postMessage({ kind: 'credit' } satisfies CreditMessage);
      yield { data: item.data, features: item.features, fraction: item.fraction };
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    worker.removeAllListeners('exit');
    await worker.terminate();
  }
}

/** The refusals of the file or its features keep their sentences; anything else stays an error. */
function readerError(message: { name: string; message: string }): Error {
  if (message.name === 'LayerReadError' || message.name === 'LayerImportError') return new LayerImportError(message.message);
  const error = new Error(message.message);
  error.name = message.name;
  return error;
}
