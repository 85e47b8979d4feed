import { context, propagation, trace, ROOT_CONTEXT, type Context, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import { tracingEnabled } from './state.js';

/** What both Fetch `Headers` and NATS message headers offer. */
export interface HeaderCarrier {
  get(name: string): string | null | undefined;
  set(name: string, value: string): void;
}

const setter: TextMapSetter<HeaderCarrier> = { set: (carrier, key, value) => carrier.set(key, value) };
const getter: TextMapGetter<HeaderCarrier> = {
  // NATS answers '' for a header that is absent.
  get: (carrier, key) => carrier.get(key) || undefined,
  keys: () => ['traceparent', 'tracestate', 'baggage'],
};

/** Writes the active span's `traceparent` (and `tracestate`) into outgoing headers. */
export function injectTraceHeaders(carrier: HeaderCarrier, from: Context = context.active()): void {
  propagation.inject(from, carrier, setter);
}

/** The caller's span context from incoming headers, as the parent of what runs next. */
export function extractTraceHeaders(carrier: HeaderCarrier | undefined): Context {
  if (!carrier) return context.active();
  return propagation.extract(context.active(), carrier, getter);
}

/**
 * The active span as one `traceparent` value, to be stored with work that another process picks
 * up later (an outbox row, a run): null when tracing is off or nothing is being traced.
 */
export function currentTraceparent(): string | null {
  if (!tracingEnabled() || !trace.getSpanContext(context.active())) return null;
  const fields = new Map<string, string>();
  injectTraceHeaders({ get: (name) => fields.get(name), set: (name, value) => void fields.set(name, value) });
  return fields.get('traceparent') ?? null;
}

/** The context a stored `traceparent` names, to run the deferred work's spans under it. */
export function contextFromTraceparent(traceparent: string | null | undefined): Context {
  if (!traceparent || !tracingEnabled()) return context.active();
  return propagation.extract(ROOT_CONTEXT, { traceparent }, { get: (carrier, key) => carrier[key as 'traceparent'], keys: () => ['traceparent'] });
}

/** The active span's `traceparent` (and `tracestate`) as plain headers for a fetch; {} when off. */
export function outgoingTraceHeaders(): Record<string, string> {
  if (!tracingEnabled()) return {};
  const fields: Record<string, string> = {};
  injectTraceHeaders({ get: (name) => fields[name], set: (name, value) => void (fields[name] = value) });
  return fields;
}
