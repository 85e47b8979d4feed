import type { ResourceLimits, Transferable, Worker } from 'node:worker_threads';
import { startWorker } from '@landscreen/threads';

/**
 * A small pool of worker threads that each do one task at a time: the gateway's heavy work (PDF
 * rendering, parsing and validating large bodies) runs there, so the thread answering requests
 * never does it (D39). Workers start at once and the pool is ready when each has said so (a
 * worker parses its fonts or compiles its schemas before that), so the first task after a start
 * is not slow. A task that runs past its time budget has its worker terminated and replaced, and
 * so does a worker that dies (out of memory under its resource limits, a crash): the task fails
 * with a WorkerTaskError, never the server. Tasks beyond the free workers wait in order, up to
 * `maxQueue`. docs/decisions.md, "Isolation: heavy work and the event loop", says why this is
 * not piscina.
 */
export interface WorkerPoolOptions {
  /** The worker's entry: its compiled `.js` file beside the caller (startWorker finds the source from it). */
  entry: URL;
  /** Worker threads in the pool. */
  size: number;
  /** Longest a task may run (from when a worker takes it) before the worker is terminated. */
  taskTimeoutMs: number;
  /** Tasks that may wait for a worker; one more is refused with WorkerTaskError('busy'). */
  maxQueue: number;
  resourceLimits?: ResourceLimits;
  workerData?: unknown;
  /** What the pool is called in errors and logs. */
  name: string;
  /** Start the workers now (a server), or on the first task (a test stack that may never render). */
  eager?: boolean;
}

export type WorkerTaskFailure = 'timeout' | 'crashed' | 'busy' | 'closed' | 'failed';

/** Why a task got no answer: its time ran out, its worker died, the queue was full, the pool closed, or the task threw. */
export class WorkerTaskError extends Error {
  constructor(
    readonly reason: WorkerTaskFailure,
    message: string,
    /** For `failed`: the `code` the worker's error carried; for `crashed`: the worker's (ERR_WORKER_OUT_OF_MEMORY). */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'WorkerTaskError';
  }
}

/** What a worker posts: `ready` once, then one answer per task. */
export type WorkerMessage = { ready: true } | { id: number; result: unknown } | { id: number; error: { message: string; code?: string } };

interface Task {
  id: number;
  message: unknown;
  transfer: readonly Transferable[];
  resolve(result: unknown): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  /** The worker has said it is ready. */
  started: boolean;
  task?: Task;
  timer?: NodeJS.Timeout;
}

export class WorkerPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {
    if (options.eager) this.start();
  }

  /** Resolves once every worker has started (fonts parsed, a sample rendered); rejects if one cannot. */
  async ready(): Promise<void> {
    this.start();
    await Promise.all([...this.slots].map((slot) => slot.ready));
  }

  private start(): void {
    for (let i = this.slots.size; i < this.options.size && !this.closed; i++) this.spawn();
  }

  /** Runs one task on a free worker: the worker receives `{ id, ...message }`. */
  run<T>(message: Record<string, unknown>, transfer: readonly Transferable[] = []): Promise<T> {
    if (this.closed) return Promise.reject(new WorkerTaskError('closed', `the ${this.options.name} pool is closed`));
    if (this.queue.length >= this.options.maxQueue) {
      return Promise.reject(new WorkerTaskError('busy', `the ${this.options.name} pool has ${this.queue.length} tasks waiting`));
    }
    this.start();
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, message, transfer, resolve: resolve as (result: unknown) => void, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(new WorkerTaskError('closed', `the ${this.options.name} pool is closed`));
    await Promise.all(
      [...this.slots].map(async (slot) => {
        clearTimeout(slot.timer);
        slot.task?.reject(new WorkerTaskError('closed', `the ${this.options.name} pool is closed`));
        slot.task = undefined;
        await slot.worker.terminate();
      }),
    );
    this.slots.clear();
  }

  private spawn(): void {
    const worker = startWorker(this.options.entry, { workerData: this.options.workerData, resourceLimits: this.options.resourceLimits });
    // An idle worker does not keep the process alive; a task in flight is held by its request.
    worker.unref();
    let started!: () => void;
    let failedToStart!: (error: Error) => void;
    const slot: Slot = { worker, started: false, ready: new Promise<void>((resolve, reject) => ((started = resolve), (failedToStart = reject))) };
    // A pool that is never awaited must not leave an unhandled rejection behind.
    slot.ready.catch(() => undefined);
    worker.on('message', (message: WorkerMessage) => {
      if ('ready' in message) {
        slot.started = true;
        started();
        this.dispatch();
        return;
      }
      const task = slot.task;
      if (!task || task.id !== message.id) return;
      clearTimeout(slot.timer);
      slot.task = undefined;
      if ('error' in message) task.reject(new WorkerTaskError('failed', message.error.message, message.error.code));
      else task.resolve(message.result);
      this.dispatch();
    });
    const lost = (error: Error) => {
      if (!this.slots.delete(slot)) return;
      clearTimeout(slot.timer);
      if (!slot.started) failedToStart(error);
      slot.task?.reject(new WorkerTaskError('crashed', `a ${this.options.name} worker stopped: ${error.message}`, (error as NodeJS.ErrnoException).code));
      slot.task = undefined;
      // A worker that cannot even start is not respawned in a loop: ready() fails, and with no
      // worker left the waiting tasks fail too (the next task tries to start one again).
      if (!this.closed && slot.started) this.spawn();
      else if (this.slots.size === 0) {
        for (const task of this.queue.splice(0)) task.reject(new WorkerTaskError('crashed', `no ${this.options.name} worker could start: ${error.message}`));
      }
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`exit code ${code}`)));
    this.slots.add(slot);
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.task || !slot.started) continue;
      const task = this.queue.shift()!;
      slot.task = task;
      slot.timer = setTimeout(() => this.timeOut(slot, task), this.options.taskTimeoutMs);
      slot.worker.postMessage({ ...(task.message as object), id: task.id }, task.transfer);
    }
  }

  private timeOut(slot: Slot, task: Task): void {
    if (slot.task !== task) return;
    slot.task = undefined;
    this.slots.delete(slot);
    task.reject(new WorkerTaskError('timeout', `a ${this.options.name} task ran past ${this.options.taskTimeoutMs} ms`));
    void slot.worker.terminate();
    if (!this.closed) this.spawn();
  }
}
