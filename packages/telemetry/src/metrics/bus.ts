import { Counter, Histogram } from 'prom-client';

/** Events handed to NATS JetStream, by subject (a bounded set of constants) and outcome. */
export const busPublished = new Counter({
  name: 'landscreen_nats_published_total',
  help: 'Events published to NATS JetStream, by subject and outcome (acked or failed)',
  labelNames: ['subject', 'outcome'] as const,
});

/** From publish to the stream's ack: what a relay waits on per batch. */
export const busPublishAckSeconds = new Histogram({
  name: 'landscreen_nats_publish_ack_seconds',
  help: 'Time from publishing an event to the stream acknowledging it',
  labelNames: ['subject'] as const,
  buckets: [0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
});

/** Deliveries a consumer settled: ack (handled), nak (redeliver later) or term (given up). */
export const busConsumed = new Counter({
  name: 'landscreen_nats_consumed_total',
  help: 'Events a durable consumer settled, by durable, subject and outcome (ack, nak, term)',
  labelNames: ['durable', 'subject', 'outcome'] as const,
});

export const busHandlerSeconds = new Histogram({
  name: 'landscreen_nats_handler_duration_seconds',
  help: 'Time a consumer took to handle one event before settling it',
  labelNames: ['durable', 'subject'] as const,
  buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60],
});
