import { SpanKind } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { httpRequestSeconds } from './metrics/http.js';
import { serveMetrics } from './metrics/serve.js';
import { contextFromTraceparent, currentTraceparent, outgoingTraceHeaders } from './tracing/carrier.js';
import { startInMemoryTracing, type InMemoryTracing } from './tracing/in-memory.js';
import { inSpan } from './tracing/spans.js';
import { traceLogFields } from './logging.js';

describe('tracing off (no OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  it('records nothing, writes no header and adds no log field', async () => {
    const answer = await inSpan('work', { kind: SpanKind.INTERNAL }, async (span) => {
      expect(span).toBeUndefined();
      expect(currentTraceparent()).toBeNull();
      expect(outgoingTraceHeaders()).toEqual({});
      expect(traceLogFields()).toEqual({});
      return 42;
    });
    expect(answer).toBe(42);
  });
});

describe('tracing on', () => {
  let tracing: InMemoryTracing | undefined;
  afterEach(async () => {
    await tracing?.shutdown();
    tracing = undefined;
  });

  it('hands the active span on as a traceparent, and logs carry its trace id', async () => {
    tracing = await startInMemoryTracing();
    let stored: string | null = null;
    await inSpan('request', { kind: SpanKind.SERVER }, async (span) => {
      stored = currentTraceparent();
      const { traceId, spanId } = span!.spanContext();
      expect(stored).toBe(`00-${traceId}-${spanId}-01`);
      expect(outgoingTraceHeaders()).toEqual({ traceparent: stored });
      expect(traceLogFields()).toEqual({ trace_id: traceId, span_id: spanId });
    });
    // Later, elsewhere (a relay): the stored value makes the parent of the deferred work.
    await inSpan('deferred', { kind: SpanKind.PRODUCER, parent: contextFromTraceparent(stored) }, async () => {});
    const [request, deferred] = tracing.spans();
    expect(deferred!.spanContext().traceId).toBe(request!.spanContext().traceId);
    expect(deferred!.parentSpanContext?.spanId).toBe(request!.spanContext().spanId);
  });

  it('marks a span whose work throws as an error and rethrows', async () => {
    tracing = await startInMemoryTracing();
    await expect(inSpan('failing', { kind: SpanKind.INTERNAL }, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(tracing.spans()[0]!.status).toMatchObject({ code: 2, message: 'boom' });
  });
});

describe('the metrics port (METRICS_PORT)', () => {
  it('serves GET /metrics alone, behind METRICS_TOKEN when it is set', async () => {
    httpRequestSeconds.observe({ method: 'GET', route: '/healthz', status: '200' }, 0.002);
    const server = await serveMetrics({ host: '127.0.0.1', port: 0, token: 'secret' });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      const allowed = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer secret' } });
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(await allowed.text()).toContain('landscreen_http_request_duration_seconds_count{method="GET",route="/healthz",status="200"} 1');
      const other = await fetch(`${base}/other`);
      expect(other.status).toBe(404);
      expect(await other.json()).toMatchObject({ code: 'not_found' });
    } finally {
      await server.close();
    }
  });
});

describe('the log mixin', () => {
  it('lets pino merge a line\'s own fields into what it answers, tracing off', async () => {
    const { Writable } = await import('node:stream');
    const { default: pino } = await import('pino');
    const lines: string[] = [];
    const logger = pino({ mixin: traceLogFields }, new Writable({ write: (chunk, _encoding, done) => void (lines.push(String(chunk)), done()) }));
    logger.info({ port: 8101 }, 'service is up');
    logger.info({ port: 8102 }, 'again');
    expect(lines.map((line) => JSON.parse(line).port)).toEqual([8101, 8102]);
  });
});
