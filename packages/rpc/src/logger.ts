import pino from 'pino';

export type Logger = pino.Logger;

/** Structured JSON logs on stdout; one logger per process, children per component. */
export function createLogger(level: string, name = 'landscreen'): Logger {
  return pino({ name, level, base: { pid: process.pid } });
}
