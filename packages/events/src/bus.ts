/**
 * The event bus the services publish diligence events on (docs/design.md D27) and workers consume.
 * Two implementations share this contract: NATS JetStream (distributed mode, `NATS_URL`) and an
 * in-process bus (embedded default). Delivery is at-least-once with explicit acks; publishing the
 * same event id twice within the duplicate window delivers it once.
 */
export interface BusEvent<T = unknown> {
  /** Event id: the dedupe key (`Nats-Msg-Id` on JetStream). */
  id: string;
  subject: string;
  data: T;
  /** 1 on first delivery, more on redelivery. */
  deliveryCount: number;
}

export interface PublishOptions {
  /** Event id used for de-duplication; required so a retried publish is never delivered twice. */
  id: string;
}

export interface SubscribeOptions {
  /** Durable consumer name: progress survives restarts and is shared by every instance using it. */
  durable: string;
  /** Subject filters, NATS syntax (`diligence.job.*`, `diligence.>`). */
  subjects: string[];
  /** At most this many handler calls in flight at once. */
  concurrency?: number;
  /** How long a handler may take before the event is redelivered. */
  ackWaitMs?: number;
  /** Deliveries after which a failing event is given up (terminated) instead of redelivered. */
  maxDeliver?: number;
}

/** Receives a broadcast notice; runs synchronously and should not throw (nothing redelivers it). */
export type BroadcastHandler = (subject: string, data: unknown) => void;

/** Resolve to ack; throw to have the event redelivered later. */
export type EventHandler = (event: BusEvent) => Promise<void>;

export interface Subscription {
  /** Stops taking new events and waits for in-flight handlers to finish. */
  stop(): Promise<void>;
}

export interface EventBus {
  readonly kind: 'nats' | 'memory';
  /** Makes sure the stream for `subjects` exists (idempotent). */
  ensureStream(stream: string, subjects: string[]): Promise<void>;
  publish(subject: string, data: unknown, options: PublishOptions): Promise<void>;
  subscribe(stream: string, options: SubscribeOptions, handler: EventHandler): Promise<Subscription>;
  /**
   * A fan-out notice (e.g. a cache invalidation): every listener of a matching filter, in every
   * process on this bus, receives it once while it listens. Unlike `publish` there is no stream,
   * no durable and no redelivery: a listener that is away misses it, so it suits only what has
   * another way to become right eventually (a cache's lifetime). No stream needs to capture it.
   */
  broadcast(subject: string, data: unknown): Promise<void>;
  /** Listens to broadcasts on a subject filter (NATS syntax); registered when it resolves. */
  listen(filter: string, handler: BroadcastHandler): Promise<Subscription>;
  close(): Promise<void>;
}
