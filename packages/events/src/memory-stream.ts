import { subjectMatches } from './subjects.js';

export interface StoredMessage {
  /** Stream sequence, starting at 1. */
  seq: number;
  id: string;
  subject: string;
  /** JSON text: stored encoded so every delivery gets its own copy, as over the wire. */
  payload: string;
  /** The publisher's span (`traceparent`), when tracing is on: the consumer's span is its child. */
  traceparent?: string;
}

/**
 * An in-memory stream: an append-only log with sequence numbers and a de-duplication window on
 * the event id (the `Nats-Msg-Id` rule). Messages are kept for the life of the process so a
 * durable created later still sees them (deliver-all).
 */
export class MemoryStream {
  readonly messages: StoredMessage[] = [];
  /** Event id → time first published; in insertion (= time) order, so pruning is from the front. */
  private readonly recentIds = new Map<string, number>();

  constructor(
    readonly name: string,
    public subjects: string[],
    private readonly duplicateWindowMs: number,
  ) {}

  captures(subject: string): boolean {
    return this.subjects.some((filter) => subjectMatches(filter, subject));
  }

  /** Appends unless `id` was published within the window; returns the new message or undefined. */
  append(subject: string, id: string, payload: string, now: number, traceparent?: string): StoredMessage | undefined {
    this.pruneIds(now);
    if (this.recentIds.has(id)) return undefined;
    this.recentIds.set(id, now);
    const message: StoredMessage = { seq: this.messages.length + 1, id, subject, payload, traceparent };
    this.messages.push(message);
    return message;
  }

  /** The message with stream sequence `seq`. */
  at(seq: number): StoredMessage | undefined {
    return this.messages[seq - 1];
  }

  private pruneIds(now: number): void {
    for (const [id, at] of this.recentIds) {
      if (now - at < this.duplicateWindowMs) break;
      this.recentIds.delete(id);
    }
  }
}
