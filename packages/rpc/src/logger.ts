import pino from 'pino';
import { traceLogFields } from '@landscreen/telemetry';

export type Logger = pino.Logger;

/**
 * Structured JSON logs on stdout (or `destination`); one logger per process, children per component. A line written
 * inside a traced span carries its `trace_id` and `span_id`.
 */
export function createLogger(level: string, name = 'landscreen', destination?: pino.DestinationStream): Logger {
  const options = { name, level, base: { pid: process.pid }, mixin: traceLogFields };
  return destination ? pino(options, destination) : pino(options);
}
