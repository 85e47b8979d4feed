// The diligence outbox keeps the span that wrote an event: the relay, running later in its own
// loop, publishes the event under it to NATS JetStream, and the consumer's span is its child — so
// a promotion's job event and the diligence worker's handling of it are one trace.

import { SpanKind } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DILIGENCE_STREAM, DILIGENCE_SUBJECTS, type EventBus, type Subscription } from '@landscreen/events';
import { currentTraceparent, inSpan, startInMemoryTracing, type InMemoryTracing } from '@landscreen/telemetry';
import { createTestPostgres, type TestDatabase } from '@landscreen/testing';
import { relayBatch } from '../../services/diligence/src/relay/relay-batch.js';
import { waitFor } from '../../packages/events/src/test-wait.js';
import { connectTestBus, startPrivateNats, writeEvents, type PrivateNats } from './relay-harness.js';

describe('an outbox event relayed to NATS stays in the trace of the request that wrote it', () => {
  let tracing: InMemoryTracing;
  let nats: PrivateNats;
  let bus: EventBus;
  let database: TestDatabase;
  let subscription: Subscription;
  const handled: { id: string; traceparent: string | null }[] = [];

  beforeAll(async () => {
    tracing = await startInMemoryTracing();
    nats = await startPrivateNats();
    bus = await connectTestBus(nats.url, 'trace-outbox');
    database = await createTestPostgres();
    await bus.ensureStream(DILIGENCE_STREAM, DILIGENCE_SUBJECTS);
    subscription = await bus.subscribe(DILIGENCE_STREAM, { durable: 'trace-outbox', subjects: ['diligence.>'] }, async (event) => {
      handled.push({ id: event.id, traceparent: currentTraceparent() });
    });
  });
  afterAll(async () => {
    await subscription?.stop();
    await bus?.close();
    await nats?.close();
    await database?.close();
    await tracing?.shutdown();
  });

  it('publishes under the writer\'s span and the consumer handles it as that span\'s descendant', async () => {
    let written: string[] = [];
    const traceId = await inSpan('POST /v1/pipeline/items/:id/promote', { kind: SpanKind.SERVER }, async (span) => {
      written = await writeEvents(database.db, 2, 'traced');
      return span!.spanContext().traceId;
    });
    // Later, outside any span, as the relay's loop runs.
    expect(currentTraceparent()).toBeNull();
    expect(await relayBatch(database.db, bus, 10)).toBe(2);
    await waitFor(() => handled.length >= 2);

    const spans = tracing.spans();
    const request = spans.find((span) => span.name === 'POST /v1/pipeline/items/:id/promote')!;
    const publishes = spans.filter((span) => span.kind === SpanKind.PRODUCER);
    const consumers = spans.filter((span) => span.kind === SpanKind.CONSUMER);
    expect(publishes).toHaveLength(2);
    expect(consumers.length).toBeGreaterThanOrEqual(2);
    for (const publish of publishes) expect(publish.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    for (const consumer of consumers) {
      expect(consumer.spanContext().traceId).toBe(traceId);
      expect(publishes.map((publish) => publish.spanContext().spanId)).toContain(consumer.parentSpanContext?.spanId);
    }
    // The handler itself runs inside the consumer's span (what it logs or calls joins the trace).
    expect(handled.map((entry) => entry.id).sort()).toEqual([...written].sort());
    for (const entry of handled) expect(entry.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
  });
});
