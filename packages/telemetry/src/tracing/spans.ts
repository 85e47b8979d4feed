import { context, SpanStatusCode, type Attributes, type Context, type Span, type SpanKind } from '@opentelemetry/api';
import { tracer, tracingEnabled } from './state.js';

/**
 * Runs `work` inside a new span (a child of `parent`, else of the active span), ending it when the
 * work settles and marking it an error when it throws. With tracing off it only runs `work`.
 */
export function inSpan<T>(name: string, options: { kind: SpanKind; attributes?: Attributes; parent?: Context }, work: (span: Span | undefined) => Promise<T>): Promise<T> {
  if (!tracingEnabled()) return work(undefined);
  const parent = options.parent ?? context.active();
  return tracer().startActiveSpan(name, { kind: options.kind, attributes: options.attributes }, parent, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
      throw error;
    } finally {
      span.end();
    }
  });
}
