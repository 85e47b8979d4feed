import { contextFromTraceparent } from '@landscreen/telemetry';
import type { EventHandler } from './bus.js';
import { consuming } from './event-tracing.js';
import type { MemoryStream } from './memory-stream.js';
import { isLastDelivery, redeliveryDelayMs, type ResolvedSubscribeOptions } from './options.js';
import { subjectMatches } from './subjects.js';

/** One `subscribe` call attached to a durable: its handler and its own concurrency budget. */
export interface MemoryWorker {
  readonly handler: EventHandler;
  readonly concurrency: number;
  inFlight: number;
  /** Called whenever the worker's last in-flight handler has settled. */
  onIdle?: () => void;
}

type ConsumerConfig = Pick<ResolvedSubscribeOptions, 'subjects' | 'ackWaitMs' | 'maxDeliver'>;

/** Delivery state of a message that was handed out and is not yet acked. */
interface Pending {
  deliveries: number;
  /** Identifies the current delivery, so the outcome of a timed-out earlier one is ignored. */
  token: object;
  timer: NodeJS.Timeout | undefined;
}

/**
 * A durable consumer of a memory stream, JetStream-like: it keeps its own position, hands each
 * matching message to one of the attached workers (so instances sharing the durable share the
 * work), redelivers on failure or ack timeout, and gives up after `maxDeliver` deliveries.
 */
export class MemoryConsumer {
  /** Next stream sequence never handed out yet. */
  private nextSeq = 1;
  private readonly pending = new Map<number, Pending>();
  /** Sequences due for redelivery, ascending: redeliveries go first, oldest first. */
  private readonly ready: number[] = [];
  private readonly workers: MemoryWorker[] = [];
  /** Round-robin start, so concurrent workers on one durable all get work. */
  private turn = 0;
  private closed = false;

  constructor(
    private readonly stream: MemoryStream,
    public config: ConsumerConfig,
  ) {}

  attach(worker: MemoryWorker): void {
    this.workers.push(worker);
    this.pump();
  }

  detach(worker: MemoryWorker): void {
    const index = this.workers.indexOf(worker);
    if (index >= 0) this.workers.splice(index, 1);
  }

  /** Hands out messages while some worker has a free slot and something is deliverable. */
  pump(): void {
    while (!this.closed) {
      const worker = this.freeWorker();
      if (!worker) return;
      const seq = this.take();
      if (seq === undefined) return;
      this.deliver(worker, seq);
    }
  }

  close(): void {
    this.closed = true;
    for (const entry of this.pending.values()) clearTimeout(entry.timer);
  }

  private freeWorker(): MemoryWorker | undefined {
    for (let i = 0; i < this.workers.length; i++) {
      const worker = this.workers[(this.turn + i) % this.workers.length];
      if (worker.inFlight < worker.concurrency) {
        this.turn = (this.turn + i + 1) % this.workers.length;
        return worker;
      }
    }
    return undefined;
  }

  private take(): number | undefined {
    const redelivery = this.ready.shift();
    if (redelivery !== undefined) return redelivery;
    for (; this.nextSeq <= this.stream.messages.length; this.nextSeq++) {
      const message = this.stream.at(this.nextSeq);
      if (message && this.config.subjects.some((filter) => subjectMatches(filter, message.subject))) {
        return this.nextSeq++;
      }
    }
    return undefined;
  }

  private deliver(worker: MemoryWorker, seq: number): void {
    const message = this.stream.at(seq);
    if (!message) return;
    const entry = this.pending.get(seq) ?? { deliveries: 0, token: {}, timer: undefined };
    entry.deliveries++;
    const token = {};
    entry.token = token;
    entry.timer = unrefTimer(() => this.onAckTimeout(seq, token), this.config.ackWaitMs);
    this.pending.set(seq, entry);
    worker.inFlight++;
    const deliveryCount = entry.deliveries;
    // Run on a later tick so a handler never runs inside publish() or subscribe().
    void Promise.resolve()
      .then(() =>
        consuming(message.subject, message.id, message.traceparent ? contextFromTraceparent(message.traceparent) : undefined, () =>
          worker.handler({ id: message.id, subject: message.subject, data: JSON.parse(message.payload), deliveryCount }),
        ),
      )
      .then(
        () => this.onSuccess(seq),
        () => this.onFailure(seq, token),
      )
      .finally(() => {
        worker.inFlight--;
        if (worker.inFlight === 0) worker.onIdle?.();
        this.pump();
      });
  }

  private onSuccess(seq: number): void {
    // Like a JetStream ack, a late ack still settles the message even after a redelivery.
    const entry = this.pending.get(seq);
    if (!entry) return;
    clearTimeout(entry.timer);
    this.pending.delete(seq);
    this.unready(seq);
  }

  private onFailure(seq: number, token: object): void {
    const entry = this.pending.get(seq);
    if (!entry || entry.token !== token) return;
    clearTimeout(entry.timer);
    if (isLastDelivery(entry.deliveries, this.config.maxDeliver)) {
      this.pending.delete(seq); // terminated
      return;
    }
    entry.timer = unrefTimer(() => this.makeReady(seq, token), redeliveryDelayMs(entry.deliveries));
  }

  private onAckTimeout(seq: number, token: object): void {
    const entry = this.pending.get(seq);
    if (!entry || entry.token !== token) return;
    // As on JetStream, once maxDeliver deliveries have timed out the message is not sent again.
    if (isLastDelivery(entry.deliveries, this.config.maxDeliver)) {
      this.pending.delete(seq);
      return;
    }
    this.makeReady(seq, token);
  }

  private makeReady(seq: number, token: object): void {
    const entry = this.pending.get(seq);
    if (!entry || entry.token !== token || this.closed) return;
    entry.token = {}; // the timed-out delivery may still fail later; that must not reschedule
    entry.timer = undefined;
    const at = this.ready.findIndex((s) => s > seq);
    if (at === -1) this.ready.push(seq);
    else this.ready.splice(at, 0, seq);
    this.pump();
  }

  private unready(seq: number): void {
    const at = this.ready.indexOf(seq);
    if (at >= 0) this.ready.splice(at, 1);
  }
}

/** Timers must not keep an otherwise finished process alive. */
function unrefTimer(fn: () => void, ms: number): NodeJS.Timeout {
  const timer = setTimeout(fn, ms);
  timer.unref();
  return timer;
}
