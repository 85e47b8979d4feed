import type { NatsConnection, Subscription as NatsSubscription } from 'nats';
import type { BroadcastHandler, Subscription } from './bus.js';
import { decodeData, encodeData } from './codec.js';
import { isConcreteSubject, isValidFilter } from './subjects.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Fan-out notices on core NATS (not JetStream): every connection subscribed to the subject gets
 * each one while it is connected, and nothing is stored, which is what a cache invalidation wants.
 * Both calls end with a flush (a round trip to the server), so a broadcast has reached the server
 * when it resolves, and a listener is registered there when `listen` resolves.
 */
export async function natsBroadcast(nc: NatsConnection, subject: string, data: unknown): Promise<void> {
  if (!isConcreteSubject(subject)) throw new Error(`cannot broadcast to subject "${subject}"`);
  nc.publish(subject, encoder.encode(encodeData(data)));
  await nc.flush();
}

export async function natsListen(nc: NatsConnection, filter: string, handler: BroadcastHandler): Promise<Subscription> {
  if (!isValidFilter(filter)) throw new Error(`invalid subject filter "${filter}"`);
  const subscription: NatsSubscription = nc.subscribe(filter, {
    callback: (error, message) => {
      if (error) return;
      try {
        handler(message.subject, decodeData(decoder.decode(message.data)));
      } catch {
        // A listener's failure is its own; the connection keeps delivering.
      }
    },
  });
  await nc.flush();
  return {
    stop: async () => {
      if (!subscription.isClosed()) subscription.unsubscribe();
    },
  };
}
