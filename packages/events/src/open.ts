import type { EventBus } from './bus.js';
import { createMemoryBus } from './memory-bus.js';
import { connectNatsBus } from './nats-bus.js';

/** The bus for this process: NATS JetStream when `NATS_URL` is set, the in-process bus otherwise. */
export async function openEventBus(natsUrl: string | undefined): Promise<EventBus> {
  return natsUrl ? connectNatsBus(natsUrl) : createMemoryBus();
}
