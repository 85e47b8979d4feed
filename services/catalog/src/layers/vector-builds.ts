// Vector layer versions decoded and indexed off the thread that answers requests. Loading a large
// version (a 1,000,000-vertex line layer) is about half a second of JSON parsing, packing and
// tree building and as much again of garbage collection; on the thread answering requests that
// was one stall of the event loop (docs/decisions.md, "Isolation"). Here the loading thread only
// reads the stored chunks and hands each to a worker as it arrives; the worker builds the index
// and answers its parts on shared buffers, which the index is made from for a few allocations.
//
// One worker per process, shared by every layer cache in it, started on the first large version
// and ended once it has been idle a while; it never keeps the process alive when idle. A small
// version is built in place: below `offThreadBytes` the work is shorter than the hand-over.

import type { Worker } from 'node:worker_threads';
import type { SourceId } from '@landscreen/field-catalog';
import { buildVectorLayer, LayerBuildError, VectorLayerIndex, type FeatureInput, type VectorLayerParts } from '@landscreen/point-engine';
import { startWorker } from '@landscreen/threads';
import { decodeFeatures } from './chunk-codec.js';
import type { BuildAnswer, BuildRequest } from './vector-build-protocol.js';

/** Stored bytes above which a vector version is built on the worker (LayerCacheOptions.offThreadBytes). */
export const DEFAULT_OFF_THREAD_BYTES = 1 << 20;
/** The worker is ended after this long without a build. */
const IDLE_MS = 30_000;

/** One version being loaded: its stored chunks in order, then the index. */
export class VectorLoad {
  private held: Uint8Array[] = [];
  private heldBytes = 0;
  private task: BuildTask | null = null;

  constructor(
    private readonly source: SourceId,
    private readonly version: string,
    private readonly offThreadBytes: number,
  ) {}

  /** Whether the version went to the worker (it stores more than `offThreadBytes`). */
  get offThread(): boolean {
    return this.task !== null;
  }

  /** One stored chunk, in chunk order. Its memory may move to the worker: the caller must not read it afterwards. */
  add(data: Uint8Array): void {
    if (this.task) return this.task.send(data);
    this.held.push(data);
    this.heldBytes += data.byteLength;
    if (this.heldBytes <= this.offThreadBytes) return;
    this.task = builds.begin(this.source, this.version);
    for (const chunk of this.held) this.task.send(chunk);
    this.held = [];
  }

  /** The index of every chunk added. */
  async finish(): Promise<VectorLayerIndex> {
    if (this.task) return VectorLayerIndex.fromParts(await this.task.end());
    const features: FeatureInput[] = [];
    for (const chunk of this.held) for (const feature of decodeFeatures(chunk)) features.push(feature);
    this.held = [];
    return buildVectorLayer(this.source, this.version, features);
  }

  /** The load failed part-way (the database): the worker forgets the version. */
  abandon(): void {
    this.task?.abandon();
    this.held = [];
  }
}

interface BuildTask {
  send(data: Uint8Array): void;
  end(): Promise<VectorLayerParts>;
  abandon(): void;
}

type Pending = { resolve(parts: VectorLayerParts): void; reject(error: Error): void };

class VectorBuilds {
  private worker: Worker | null = null;
  private nextTask = 1;
  /** Tasks begun and not yet answered (or abandoned). */
  private readonly open = new Set<number>();
  private readonly pending = new Map<number, Pending>();
  private readonly answered = new Map<number, BuildAnswer>();
  private idle: NodeJS.Timeout | null = null;

  begin(source: SourceId, version: string): BuildTask {
    const worker = this.running();
    const task = this.nextTask++;
    this.open.add(task);
    this.busy();
    this.post(worker, { kind: 'begin', task, source, version });
    return {
      send: (data) => {
        const owned = movable(data);
        this.post(worker, { kind: 'chunk', task, data: owned }, [owned.buffer as ArrayBuffer]);
      },
      end: () => {
        this.post(worker, { kind: 'end', task });
        return this.await(task);
      },
      abandon: () => {
        this.post(worker, { kind: 'abandon', task });
        this.answered.delete(task);
        this.settle(task);
      },
    };
  }

  private await(task: number): Promise<VectorLayerParts> {
    return new Promise((resolve, reject) => {
      const early = this.answered.get(task);
      if (early) {
        this.answered.delete(task);
        return early.kind === 'built' ? resolve(early.parts) : reject(failure(early));
      }
      this.pending.set(task, { resolve, reject });
    });
  }

  private post(worker: Worker, message: BuildRequest, transfer: ArrayBuffer[] = []): void {
    // A worker that died has already failed its tasks; what is still sent to it goes nowhere.
    if (this.worker === worker) worker.postMessage(message, transfer);
  }

  private running(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker(new URL('./vector-build-worker.js', import.meta.url));
    worker.on('message', (message: BuildAnswer) => this.onAnswer(message));
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      for (const task of [...this.open]) {
        const waiting = this.pending.get(task);
        if (waiting) waiting.reject(error);
        else this.answered.set(task, { kind: 'failed', task, name: error.name, message: error.message, position: null });
        this.settle(task);
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the layer build worker stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private onAnswer(message: BuildAnswer): void {
    const waiting = this.pending.get(message.task);
    if (!waiting) this.answered.set(message.task, message);
    else if (message.kind === 'built') waiting.resolve(message.parts);
    else waiting.reject(failure(message));
    this.settle(message.task);
  }

  private settle(task: number): void {
    this.open.delete(task);
    this.pending.delete(task);
    if (this.open.size === 0) this.quiet();
  }

  /** A build in flight keeps the process alive (a CLI's prepare waits on it). */
  private busy(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    this.worker?.ref();
  }

  private quiet(): void {
    const worker = this.worker;
    if (!worker) return;
    worker.unref();
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      if (this.worker !== worker || this.open.size > 0) return;
      this.worker = null;
      void worker.terminate();
    }, IDLE_MS);
    this.idle.unref();
  }
}

/**
 * `data` as a buffer that can be moved to the worker: as it is when it owns its whole memory (a
 * chunk of a few hundred kilobytes as both drivers decode it), else a copy (a view into a shared
 * pool or a larger buffer must not take its neighbours along).
 */
function movable(data: Uint8Array): Uint8Array {
  return data.byteOffset === 0 && data.byteLength === data.buffer.byteLength && data.buffer instanceof ArrayBuffer ? data : new Uint8Array(data);
}

function failure(message: Extract<BuildAnswer, { kind: 'failed' }>): Error {
  if (message.name === 'LayerBuildError') return new LayerBuildError(message.message, message.position);
  const error = new Error(message.message);
  error.name = message.name;
  return error;
}

const builds = new VectorBuilds();
