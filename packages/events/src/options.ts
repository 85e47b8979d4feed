import type { SubscribeOptions } from './bus.js';
import { isValidFilter } from './subjects.js';

export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_ACK_WAIT_MS = 30_000;
/** Unlimited, as on JetStream: an event is only given up when the subscriber asks for it. */
export const DEFAULT_MAX_DELIVER = -1;
/** JetStream's duplicate window default is 2 minutes; the memory bus uses the same. */
export const DEFAULT_DUPLICATE_WINDOW_MS = 120_000;

export interface ResolvedSubscribeOptions {
  durable: string;
  subjects: string[];
  concurrency: number;
  ackWaitMs: number;
  /** -1 = unlimited. */
  maxDeliver: number;
}

/** Validates subscribe options the same way for both buses so they fail alike. */
export function resolveSubscribeOptions(options: SubscribeOptions): ResolvedSubscribeOptions {
  const { durable, subjects } = options;
  // Durable names become part of JetStream API subjects, so they must be a single token.
  if (!durable || /[.*>\s]/.test(durable)) throw new Error(`invalid durable name "${durable}"`);
  if (subjects.length === 0) throw new Error('subscribe needs at least one subject filter');
  for (const filter of subjects) {
    if (!isValidFilter(filter)) throw new Error(`invalid subject filter "${filter}"`);
  }
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`concurrency must be a positive integer, got ${concurrency}`);
  const ackWaitMs = options.ackWaitMs ?? DEFAULT_ACK_WAIT_MS;
  if (!(ackWaitMs > 0)) throw new Error(`ackWaitMs must be positive, got ${ackWaitMs}`);
  const maxDeliver = options.maxDeliver ?? DEFAULT_MAX_DELIVER;
  if (!Number.isInteger(maxDeliver) || (maxDeliver < 1 && maxDeliver !== -1)) {
    throw new Error(`maxDeliver must be a positive integer or -1, got ${maxDeliver}`);
  }
  return { durable, subjects: [...new Set(subjects)], concurrency, ackWaitMs, maxDeliver };
}

/**
 * Delay before a failed event is delivered again: doubling from 250 ms, capped at 30 s, so a
 * briefly failing dependency is retried quickly and a long outage is not hammered.
 */
export function redeliveryDelayMs(deliveryCount: number): number {
  return Math.min(250 * 2 ** Math.max(0, deliveryCount - 1), 30_000);
}

/** True when the delivery that just failed was the last one allowed. */
export function isLastDelivery(deliveryCount: number, maxDeliver: number): boolean {
  return maxDeliver !== -1 && deliveryCount >= maxDeliver;
}
