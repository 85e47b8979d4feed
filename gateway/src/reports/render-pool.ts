import os from 'node:os';
import type { DeliveryReport, SiteReport } from '@landscreen/reports';
import { ApiError } from '../errors/index.js';
import { WorkerPool, WorkerTaskError } from '../worker-pool/pool.js';

/** How PDF reports are rendered: on how many worker threads, and each document's budgets. */
export interface ReportRenderingOptions {
  /** Render worker threads. */
  workers: number;
  /** Longest a document may render; then its worker is replaced and the answer is 503 report_timeout. */
  timeoutMs: number;
  /** Largest document in bytes; a larger one is 422 report_too_large. */
  maxBytes: number;
  /** Heap a render worker may use (MB); a document that needs more is 422 report_too_large. */
  maxMemoryMb: number;
  /** Start the workers with the gateway (a server) rather than on the first report (tests). */
  eager: boolean;
}

const MiB = 1024 * 1024;

/** Half the cores (at least one, at most four): the other half stays with the thread answering requests. */
export const DEFAULT_REPORT_WORKERS = Math.max(1, Math.min(4, Math.floor((os.availableParallelism?.() ?? os.cpus().length) / 2)));

export const DEFAULT_REPORT_RENDERING: ReportRenderingOptions = Object.freeze({
  workers: DEFAULT_REPORT_WORKERS,
  timeoutMs: 60_000,
  maxBytes: 64 * MiB,
  maxMemoryMb: 512,
  eager: false,
});

/** Reports waiting for a render worker beyond which a report is refused as 503 reports_busy. */
const MAX_WAITING = 100;

export interface RenderTask {
  kind: 'site' | 'delivery';
  report: SiteReport | DeliveryReport;
  maxBytes: number;
}

/**
 * Renders site and delivery reports (D30) on a pool of worker threads (render-worker.ts), never
 * on the thread that answers requests (D39): a report of a property whose contact holds a long
 * word once held every request of the server for 18 s. A document over its time or size budget
 * is answered with a D2 error and its worker replaced. docs/decisions.md, "PDF rendering in a
 * worker pool".
 */
export class ReportRenderer {
  private readonly pool: WorkerPool;

  constructor(private readonly options: ReportRenderingOptions = DEFAULT_REPORT_RENDERING) {
    this.pool = new WorkerPool({
      name: 'report render',
      entry: new URL('./render-worker.js', import.meta.url),
      size: options.workers,
      taskTimeoutMs: options.timeoutMs,
      maxQueue: MAX_WAITING,
      resourceLimits: { maxOldGenerationSizeMb: options.maxMemoryMb },
      eager: options.eager,
    });
  }

  ready(): Promise<void> {
    return this.pool.ready();
  }

  site(report: SiteReport): Promise<Buffer> {
    return this.render({ kind: 'site', report, maxBytes: this.options.maxBytes });
  }

  delivery(report: DeliveryReport): Promise<Buffer> {
    return this.render({ kind: 'delivery', report, maxBytes: this.options.maxBytes });
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async render(task: RenderTask): Promise<Buffer> {
    try {
      const bytes = await this.pool.run<Uint8Array>({ ...task });
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (error) {
      throw this.answerFor(error);
    }
  }

  private answerFor(error: unknown): unknown {
    if (!(error instanceof WorkerTaskError)) return error;
    const seconds = Math.round(this.options.timeoutMs / 1000);
    const megabytes = Math.round(this.options.maxBytes / MiB);
    if (error.reason === 'timeout') {
      return new ApiError(503, 'report_timeout', `The report did not render within ${seconds} s and was stopped.`);
    }
    if ((error.reason === 'failed' && error.code === 'report_too_large') || (error.reason === 'crashed' && error.code === 'ERR_WORKER_OUT_OF_MEMORY')) {
      return new ApiError(422, 'report_too_large', `The report would be larger than a report may be (${megabytes} MiB, ${this.options.maxMemoryMb} MB of memory to render it).`);
    }
    if (error.reason === 'busy') {
      return new ApiError(503, 'reports_busy', 'Too many reports are being rendered; retry in a few seconds.', {}, { 'retry-after': '5' });
    }
    if (error.reason === 'closed') return new ApiError(503, 'unavailable', 'The server is shutting down.');
    return error;
  }
}
