import { context, trace } from '@opentelemetry/api';
import { tracingEnabled } from './tracing/state.js';

/**
 * The fields a log line gets from the span it is written in (`trace_id`, `span_id`), so a line
 * leads to its trace: a pino `mixin`. Nothing when tracing is off or no span is active. Always a
 * new object: pino merges the line's own fields into it.
 */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  if (!tracingEnabled()) return {};
  const span = trace.getSpanContext(context.active());
  return span ? { trace_id: span.traceId, span_id: span.spanId } : {};
}
