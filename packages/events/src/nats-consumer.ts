import { AckPolicy, DeliverPolicy, nanos, type ConsumerConfig, type JetStreamManager } from 'nats';
import { isConsumerNotFound } from './nats-errors.js';
import type { ResolvedSubscribeOptions } from './options.js';

/** How a durable's subject filters are applied. */
export interface FilterPlan {
  filter_subject?: string;
  filter_subjects?: string[];
  /**
   * True when the server cannot filter on several subjects (before 2.10): the consumer then
   * takes the whole stream and the subscriber acks what its filters do not match.
   */
  clientSide: boolean;
}

export function planFilters(subjects: string[], serverVersion: string | undefined): FilterPlan {
  if (subjects.length === 1) return { filter_subject: subjects[0], clientSide: false };
  if (supportsMultipleFilters(serverVersion)) return { filter_subjects: subjects, clientSide: false };
  return { clientSide: true };
}

function supportsMultipleFilters(serverVersion: string | undefined): boolean {
  const [major = 0, minor = 0] = (serverVersion ?? '').split('.').map((part) => Number.parseInt(part, 10));
  return major > 2 || (major === 2 && minor >= 10);
}

/**
 * Creates the durable pull consumer, or updates it when this subscriber's settings differ, so
 * redeploying with a new ack wait or filter takes effect without deleting the durable (which
 * would lose its position). Deliver-all: a durable created late still sees the stream.
 */
export async function ensureConsumer(
  jsm: JetStreamManager,
  stream: string,
  options: ResolvedSubscribeOptions,
  plan: FilterPlan,
): Promise<void> {
  const wanted: Partial<ConsumerConfig> = {
    ack_wait: nanos(options.ackWaitMs),
    max_deliver: options.maxDeliver,
    ...(plan.filter_subject !== undefined ? { filter_subject: plan.filter_subject } : {}),
    ...(plan.filter_subjects !== undefined ? { filter_subjects: plan.filter_subjects } : {}),
  };
  let current: ConsumerConfig;
  try {
    current = (await jsm.consumers.info(stream, options.durable)).config;
  } catch (error) {
    if (!isConsumerNotFound(error)) throw error;
    await jsm.consumers.add(stream, {
      durable_name: options.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ...wanted,
    });
    return;
  }
  const sameFilters =
    (current.filter_subject ?? '') === (plan.filter_subject ?? '') &&
    sameSet(current.filter_subjects ?? [], plan.filter_subjects ?? []);
  if (sameFilters && current.ack_wait === wanted.ack_wait && current.max_deliver === wanted.max_deliver) return;
  // `update` merges into the current config, so filters not wanted any more are cleared explicitly.
  await jsm.consumers.update(stream, options.durable, {
    filter_subject: undefined,
    ...(current.filter_subjects !== undefined ? { filter_subjects: undefined } : {}),
    ...wanted,
  } as Partial<ConsumerConfig>);
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}
