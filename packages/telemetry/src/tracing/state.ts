import { trace, type Tracer } from '@opentelemetry/api';

/**
 * Whether spans are recorded in this process. Off (the default) every instrumentation point
 * returns before creating anything: no span objects, no header writes, no context switches.
 */
let enabled = false;

export const tracingEnabled = (): boolean => enabled;

export function setTracingEnabled(value: boolean): void {
  enabled = value;
}

/** The tracer every span of landscreen is made by (the global provider's). */
export const tracer = (): Tracer => trace.getTracer('landscreen');
