import type { ConsumerMessages, JetStreamClient, JsMsg } from 'nats';
import { busConsumed, busHandlerSeconds, extractTraceHeaders, tracingEnabled } from '@landscreen/telemetry';
import type { EventHandler, Subscription } from './bus.js';
import { decodeData } from './codec.js';
import { consuming } from './event-tracing.js';
import type { FilterPlan } from './nats-consumer.js';
import { isLastDelivery, redeliveryDelayMs, type ResolvedSubscribeOptions } from './options.js';
import { subjectMatches } from './subjects.js';

/**
 * How long one pull request waits on the server. It also bounds how long the client needs to
 * notice a lost consumer after a server restart (the library retries consumer info once per
 * expiry), so it is kept short; idle cost is one small request per subscriber per period.
 */
const PULL_EXPIRES_MS = 5_000;
/** Pause before re-opening a consume loop that ended unexpectedly (e.g. JetStream unavailable). */
const RESTART_DELAY_MS = 1_000;

const decoder = new TextDecoder();

/**
 * Runs a durable's consume loop: never more than `concurrency` handlers in flight, ack on
 * success, nak with backoff on failure, term once `maxDeliver` deliveries failed. The loop
 * re-opens itself if the library ever ends it, so a subscriber outlives NATS outages.
 */
export function startConsumeLoop(
  js: JetStreamClient,
  stream: string,
  options: ResolvedSubscribeOptions,
  plan: FilterPlan,
  handler: EventHandler,
): Subscription {
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  let messages: ConsumerMessages | undefined;
  let wakeRestart: (() => void) | undefined;

  const handle = async (m: JsMsg): Promise<void> => {
    // Only when the server could not filter: messages for other subjects are not ours.
    if (plan.clientSide && !options.subjects.some((f) => subjectMatches(f, m.subject))) {
      m.ack();
      return;
    }
    const deliveryCount = m.info.deliveryCount;
    let data: unknown;
    try {
      data = decodeData(decoder.decode(m.data));
    } catch {
      m.term('payload is not JSON'); // redelivering cannot fix it
      busConsumed.inc({ durable: options.durable, subject: m.subject, outcome: 'term' });
      return;
    }
    const id = m.headers?.get('Nats-Msg-Id') || `${stream}:${m.seq}`;
    const labels = { durable: options.durable, subject: m.subject };
    const stopTimer = busHandlerSeconds.startTimer(labels);
    try {
      // A child of the publisher's span when the message carries one (`traceparent` header).
      const parent = tracingEnabled() ? extractTraceHeaders(m.headers) : undefined;
      await consuming(m.subject, id, parent, () => handler({ id, subject: m.subject, data, deliveryCount }));
    } catch {
      stopTimer();
      const last = isLastDelivery(deliveryCount, options.maxDeliver);
      if (last) m.term('handler failed on the last allowed delivery');
      else m.nak(redeliveryDelayMs(deliveryCount));
      busConsumed.inc({ ...labels, outcome: last ? 'term' : 'nak' });
      return;
    }
    stopTimer();
    m.ack();
    busConsumed.inc({ ...labels, outcome: 'ack' });
  };

  const start = (m: JsMsg): void => {
    const run: Promise<void> = handle(m)
      .catch(() => undefined) // handle() only throws if the connection is gone; redelivery covers it
      .finally(() => inFlight.delete(run));
    inFlight.add(run);
  };

  /**
   * Takes the next message only once a slot is free: the library sends its next pull request
   * when we ask the iterator for more, so no message waits here (its ack wait ticking) while
   * another instance of the durable may be idle.
   */
  const drive = async (source: ConsumerMessages): Promise<void> => {
    const iterator = source[Symbol.asyncIterator]();
    for (;;) {
      while (!stopping && inFlight.size >= options.concurrency) await Promise.race(inFlight);
      const next = await iterator.next();
      if (next.done) return;
      // Pulled but not started when stop() came: hand it back now rather than after ack_wait.
      if (stopping) next.value.nak();
      else start(next.value);
    }
  };

  const loop = async (): Promise<void> => {
    while (!stopping) {
      try {
        const consumer = await js.consumers.get(stream, options.durable);
        // Pull no more than we may run, so pulled messages don't sit out their ack wait in a buffer.
        messages = await consumer.consume({ max_messages: options.concurrency, expires: PULL_EXPIRES_MS });
        if (stopping) messages.stop();
        await drive(messages);
      } catch {
        // Consumer info or consume failed (server away, JetStream not ready yet): retry below.
      }
      if (!stopping) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, RESTART_DELAY_MS);
          wakeRestart = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wakeRestart = undefined;
      }
    }
  };
  const looping = loop();

  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        stopping = true;
        messages?.stop();
        wakeRestart?.();
        await looping;
        await Promise.all(inFlight);
      })();
      return stopped;
    },
  };
}
