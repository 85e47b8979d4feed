// Worker thread: reads a vector layer file into encoded chunks (feature-chunks.ts) and posts them
// to the importing thread, which stores them. Started by features-in-worker.ts.

import { parentPort, workerData } from 'node:worker_threads';
import { featureChunks } from './feature-chunks.js';
import type { CreditMessage, WorkerInput, WorkerMessage } from './feature-chunks-protocol.js';

const port = parentPort!;
const { request, credits: initialCredits } = workerData as WorkerInput;
let credits = initialCredits;
let wake: (() => void) | null = null;

port.on('message', (message: CreditMessage) => {
  if (message.kind !== 'credit') return;
  credits++;
  wake?.();
  wake = null;
});

const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

async function run(): Promise<void> {
  const chunks = featureChunks(request);
  for (;;) {
    const next = await chunks.next();
    if (next.done) {
      post({ kind: 'done', summary: next.value });
      return;
    }
    const { data, features, fraction } = next.value;
    // A buffer that owns its whole memory moves to the other thread as it is; one cut from a
    // shared pool is copied first (transferring the pool would take its neighbours too).
    const owned = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength ? data : new Uint8Array(data);
    while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
    credits--;
    post({ kind: 'chunk', data: owned, features, fraction }, [owned.buffer as ArrayBuffer]);
  }
}

// The importing thread ends the worker once it has the last message.
run().catch((error: Error) => post({ kind: 'error', name: error.name, message: error.message }));
