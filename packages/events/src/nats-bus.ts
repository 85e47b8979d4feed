import { StorageType, connect, headers, nanos, type NatsConnection } from 'nats';
import { busPublishAckSeconds, busPublished, injectTraceHeaders, tracingEnabled } from '@landscreen/telemetry';
import type { EventBus, EventHandler, PublishOptions, SubscribeOptions, Subscription } from './bus.js';
import { encodeData } from './codec.js';
import { publishing } from './event-tracing.js';
import { natsBroadcast, natsListen } from './nats-broadcast.js';
import { ensureConsumer, planFilters } from './nats-consumer.js';
import { isStreamNotFound } from './nats-errors.js';
import { startConsumeLoop } from './nats-subscription.js';
import { DEFAULT_DUPLICATE_WINDOW_MS, resolveSubscribeOptions } from './options.js';
import { isConcreteSubject } from './subjects.js';

export interface NatsBusOptions {
  /** Connection name shown by the server (`nats server report connections`). */
  name?: string;
  /** Duplicate window of streams this bus creates (default 2 minutes). */
  duplicateWindowMs?: number;
  /**
   * How long publish waits for the stream's ack. While the server is away publish fails after
   * this long instead of hanging, so the caller (the outbox relay) can retry later. Default 5 s.
   */
  publishTimeoutMs?: number;
  /** Pause between reconnect attempts (default 1 s). Attempts never stop. */
  reconnectTimeWaitMs?: number;
}

/** How long close() lets a drain flush before it drops the connection. */
const DRAIN_TIMEOUT_MS = 5_000;

/**
 * The distributed-mode bus on NATS JetStream. The connection reconnects forever; subscriptions
 * resume on their own after an outage; publishes made during one reject after the timeout.
 * Rejects when the first connection cannot be made, so a wrong `NATS_URL` fails at start-up.
 */
export async function connectNatsBus(url: string, options: NatsBusOptions = {}): Promise<EventBus> {
  const nc = await connect({
    servers: url,
    name: options.name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: options.reconnectTimeWaitMs ?? 1_000,
    // Every JetStream publish is a request; with async traces on, nats.js captures a stack trace
    // (`new Error()`) for each one, which was most of the relay's cost per event. Our errors name
    // the subject and the event id themselves.
    noAsyncTraces: true,
  });
  const js = nc.jetstream();
  const jsm = await nc.jetstreamManager();
  const publishTimeoutMs = options.publishTimeoutMs ?? 5_000;
  const duplicateWindowMs = options.duplicateWindowMs ?? DEFAULT_DUPLICATE_WINDOW_MS;
  const subscriptions = new Set<Subscription>();
  let closing: Promise<void> | undefined;

  const assertOpen = (): void => {
    if (closing) throw new Error('event bus is closed');
  };

  return {
    kind: 'nats',

    async ensureStream(stream: string, subjects: string[]) {
      assertOpen();
      let current: string[];
      try {
        current = (await jsm.streams.info(stream)).config.subjects ?? [];
      } catch (error) {
        if (!isStreamNotFound(error)) throw error;
        await jsm.streams.add({
          name: stream,
          subjects: [...new Set(subjects)],
          storage: StorageType.File,
          duplicate_window: nanos(duplicateWindowMs),
        });
        return;
      }
      // Subjects are only ever added: several services may each ensure the subjects they use.
      const merged = [...new Set([...current, ...subjects])];
      if (merged.length !== current.length) await jsm.streams.update(stream, { subjects: merged });
    },

    async publish(subject: string, data: unknown, { id }: PublishOptions) {
      assertOpen();
      if (!isConcreteSubject(subject)) throw new Error(`cannot publish to subject "${subject}"`);
      if (!id) throw new Error('publish needs an event id');
      // A duplicate (same msgID within the window) is acked by the stream but stored once.
      const payload = new TextEncoder().encode(encodeData(data));
      await publishing(subject, id, async () => {
        // The publisher's span travels in the message headers, so the consumer's span joins its trace.
        const traceHeaders = tracingEnabled() ? headers() : undefined;
        if (traceHeaders) injectTraceHeaders(traceHeaders);
        const stopTimer = busPublishAckSeconds.startTimer({ subject });
        try {
          await js.publish(subject, payload, { msgID: id, timeout: publishTimeoutMs, headers: traceHeaders });
        } catch (error) {
          busPublished.inc({ subject, outcome: 'failed' });
          throw new Error(`publishing ${subject} (event ${id}) failed: ${(error as Error).message}`, { cause: error });
        }
        stopTimer();
        busPublished.inc({ subject, outcome: 'acked' });
      });
    },

    async subscribe(stream: string, subscribeOptions: SubscribeOptions, handler: EventHandler) {
      assertOpen();
      const resolved = resolveSubscribeOptions(subscribeOptions);
      const plan = planFilters(resolved.subjects, nc.info?.version);
      await ensureConsumer(jsm, stream, resolved, plan);
      const inner = startConsumeLoop(js, stream, resolved, plan, handler);
      const subscription: Subscription = {
        async stop() {
          await inner.stop();
          subscriptions.delete(subscription);
        },
      };
      subscriptions.add(subscription);
      return subscription;
    },

    async broadcast(subject: string, data: unknown) {
      assertOpen();
      await natsBroadcast(nc, subject, data);
    },

    async listen(filter, handler) {
      assertOpen();
      const listening = await natsListen(nc, filter, handler);
      const subscription: Subscription = {
        async stop() {
          await listening.stop();
          subscriptions.delete(subscription);
        },
      };
      subscriptions.add(subscription);
      return subscription;
    },

    close() {
      closing ??= (async () => {
        await Promise.all([...subscriptions].map((s) => s.stop()));
        await drainOrClose(nc);
      })();
      return closing;
    },
  };
}

/** Drain flushes pending acks; if the server is away that could wait forever, so it is bounded. */
async function drainOrClose(nc: NatsConnection): Promise<void> {
  if (nc.isClosed()) return;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), DRAIN_TIMEOUT_MS)));
  const outcome = await Promise.race([nc.drain().then(() => 'drained' as const, () => 'failed' as const), timedOut]);
  clearTimeout(timer);
  if (outcome !== 'drained' && !nc.isClosed()) await nc.close();
}
