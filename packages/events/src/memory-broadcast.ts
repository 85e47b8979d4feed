import type { BroadcastHandler, Subscription } from './bus.js';
import { decodeData, encodeData } from './codec.js';
import { isConcreteSubject, isValidFilter, subjectMatches } from './subjects.js';

/**
 * Fan-out notices of the in-process bus: every listener whose filter matches hears each
 * broadcast, synchronously, before `broadcast` resolves; nothing is kept for later listeners.
 */
export class MemoryBroadcast {
  private readonly listeners = new Set<{ filter: string; handler: BroadcastHandler }>();

  broadcast(subject: string, data: unknown): void {
    if (!isConcreteSubject(subject)) throw new Error(`cannot broadcast to subject "${subject}"`);
    const text = encodeData(data);
    for (const listener of [...this.listeners]) {
      if (!subjectMatches(listener.filter, subject)) continue;
      // Each listener gets its own copy, and one that throws keeps the others from nothing.
      try {
        listener.handler(subject, decodeData(text));
      } catch {
        // A listener's failure is its own (it logs what it needs); the broadcaster is not told.
      }
    }
  }

  listen(filter: string, handler: BroadcastHandler): Subscription {
    if (!isValidFilter(filter)) throw new Error(`invalid subject filter "${filter}"`);
    const listener = { filter, handler };
    this.listeners.add(listener);
    return {
      stop: async () => {
        this.listeners.delete(listener);
      },
    };
  }

  clear(): void {
    this.listeners.clear();
  }
}
