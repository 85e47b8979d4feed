import { parentPort, type Transferable } from 'node:worker_threads';
import type { WorkerMessage } from './pool.js';

/** What a task handler answers: the result, and the buffers to hand over rather than copy. */
export interface TaskAnswer {
  result: unknown;
  transfer?: Transferable[];
}

/**
 * The worker side of a WorkerPool: answers each task with `handle`'s result, or with its error's
 * message and `code` (a handler throws for a task it refuses; the worker lives on). Called once
 * the worker's start-up work is done, which is what the pool's ready() waits for.
 */
export function serveTasks<M extends { id: number }>(handle: (message: M) => TaskAnswer | Promise<TaskAnswer>): void {
  const port = parentPort;
  if (!port) throw new Error('serveTasks() runs in a worker thread');
  port.on('message', async (message: M) => {
    let answer: WorkerMessage;
    let transfer: Transferable[] = [];
    try {
      const done = await handle(message);
      answer = { id: message.id, result: done.result };
      transfer = done.transfer ?? [];
    } catch (error) {
      const { message: text, code } = error as Error & { code?: unknown };
      answer = { id: message.id, error: { message: String(text), code: typeof code === 'string' ? code : undefined } };
    }
    port.postMessage(answer, transfer);
  });
  port.postMessage({ ready: true } satisfies WorkerMessage);
}
