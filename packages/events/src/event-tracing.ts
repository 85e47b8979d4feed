import { SpanKind, type Context } from '@opentelemetry/api';
import { inSpan, tracingEnabled } from '@landscreen/telemetry';

/**
 * The span of publishing an event (a child of whatever is active: a request, or the stored
 * context an outbox relay restored); `work` gets the span's context to write into the message's
 * headers. With tracing off it only runs `work`.
 */
export function publishing<T>(subject: string, id: string, work: () => Promise<T>): Promise<T> {
  if (!tracingEnabled()) return work();
  return inSpan(`${subject} publish`, { kind: SpanKind.PRODUCER, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject, 'messaging.message.id': id } }, work);
}

/** The span of handling a delivered event, a child of the publisher's span named by its headers. */
export function consuming<T>(subject: string, id: string, parent: Context | undefined, work: () => Promise<T>): Promise<T> {
  if (!tracingEnabled()) return work();
  return inSpan(`${subject} process`, { kind: SpanKind.CONSUMER, parent, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': subject, 'messaging.message.id': id } }, work);
}
