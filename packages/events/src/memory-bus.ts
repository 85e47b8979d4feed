import type { EventBus, EventHandler, PublishOptions, SubscribeOptions, Subscription } from './bus.js';
import { currentTraceparent } from '@landscreen/telemetry';
import { encodeData } from './codec.js';
import { publishing } from './event-tracing.js';
import { MemoryBroadcast } from './memory-broadcast.js';
import { MemoryConsumer, type MemoryWorker } from './memory-consumer.js';
import { MemoryStream } from './memory-stream.js';
import { DEFAULT_DUPLICATE_WINDOW_MS, resolveSubscribeOptions } from './options.js';
import { isConcreteSubject, isValidFilter } from './subjects.js';

export interface MemoryBusOptions {
  /** Publishing an id again within this window is a no-op (default 2 minutes, as JetStream). */
  duplicateWindowMs?: number;
  /** The clock the window is measured on (default Date.now; tests move their own). */
  now?: () => number;
}

/**
 * The in-process bus of the embedded default: JetStream semantics (streams, de-duplication by
 * event id, durable consumers with explicit acks and redelivery) without a server. Nothing
 * survives the process, which is fine there because the outbox is the durable record.
 */
export function createMemoryBus(options: MemoryBusOptions = {}): EventBus {
  const duplicateWindowMs = options.duplicateWindowMs ?? DEFAULT_DUPLICATE_WINDOW_MS;
  const now = options.now ?? Date.now;
  const streams = new Map<string, MemoryStream>();
  /** Consumers by stream name, then durable name. */
  const consumers = new Map<string, Map<string, MemoryConsumer>>();
  const subscriptions = new Set<Subscription>();
  const broadcasts = new MemoryBroadcast();
  let closed = false;
  let closing: Promise<void> | undefined;

  const assertOpen = (): void => {
    if (closed) throw new Error('event bus is closed');
  };

  return {
    kind: 'memory',

    async ensureStream(name, subjects) {
      assertOpen();
      for (const filter of subjects) {
        if (!isValidFilter(filter)) throw new Error(`invalid subject filter "${filter}"`);
      }
      for (const other of streams.values()) {
        // JetStream refuses overlapping streams because a message must land in exactly one.
        if (other.name !== name && subjects.some((s) => other.subjects.some((o) => overlaps(s, o)))) {
          throw new Error(`subjects ${subjects.join(', ')} overlap those of stream ${other.name}`);
        }
      }
      const existing = streams.get(name);
      if (existing) {
        existing.subjects = [...new Set([...existing.subjects, ...subjects])];
        return;
      }
      streams.set(name, new MemoryStream(name, [...new Set(subjects)], duplicateWindowMs));
      consumers.set(name, new Map());
    },

    async publish(subject: string, data: unknown, { id }: PublishOptions) {
      assertOpen();
      if (!isConcreteSubject(subject)) throw new Error(`cannot publish to subject "${subject}"`);
      if (!id) throw new Error('publish needs an event id');
      const stream = [...streams.values()].find((s) => s.captures(subject));
      // As on JetStream (no responders): an event no stream captures would be silently lost.
      if (!stream) throw new Error(`no stream captures subject "${subject}"`);
      const message = await publishing(subject, id, async () => stream.append(subject, id, encodeData(data), now(), currentTraceparent() ?? undefined));
      if (!message) return; // duplicate within the window
      for (const consumer of consumers.get(stream.name)?.values() ?? []) consumer.pump();
    },

    async subscribe(streamName: string, subscribeOptions: SubscribeOptions, handler: EventHandler) {
      assertOpen();
      const resolved = resolveSubscribeOptions(subscribeOptions);
      const stream = streams.get(streamName);
      if (!stream) throw new Error(`stream ${streamName} not found`);
      const byDurable = consumers.get(streamName) as Map<string, MemoryConsumer>;
      const config = { subjects: resolved.subjects, ackWaitMs: resolved.ackWaitMs, maxDeliver: resolved.maxDeliver };
      let consumer = byDurable.get(resolved.durable);
      if (consumer) consumer.config = config; // the latest subscriber's settings win, as a consumer update
      else byDurable.set(resolved.durable, (consumer = new MemoryConsumer(stream, config)));

      const worker: MemoryWorker = { handler, concurrency: resolved.concurrency, inFlight: 0 };
      const attachedTo = consumer;
      attachedTo.attach(worker);
      let stopping: Promise<void> | undefined;
      const subscription: Subscription = {
        stop() {
          stopping ??= (async () => {
            attachedTo.detach(worker);
            if (worker.inFlight > 0) await new Promise<void>((resolve) => (worker.onIdle = resolve));
            subscriptions.delete(subscription);
          })();
          return stopping;
        },
      };
      subscriptions.add(subscription);
      return subscription;
    },

    async broadcast(subject: string, data: unknown) {
      assertOpen();
      broadcasts.broadcast(subject, data);
    },

    async listen(filter, handler) {
      assertOpen();
      return broadcasts.listen(filter, handler);
    },

    close() {
      closing ??= (async () => {
        closed = true;
        broadcasts.clear();
        await Promise.all([...subscriptions].map((s) => s.stop()));
        for (const byDurable of consumers.values()) for (const consumer of byDurable.values()) consumer.close();
      })();
      return closing;
    },
  };
}

/** Conservative overlap test between two filters: true when some subject could match both. */
function overlaps(a: string, b: string): boolean {
  const x = a.split('.');
  const y = b.split('.');
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if (x[i] === undefined || y[i] === undefined) return false;
    if (x[i] === '>' || y[i] === '>') return true;
    if (x[i] !== '*' && y[i] !== '*' && x[i] !== y[i]) return false;
  }
  return true;
}
