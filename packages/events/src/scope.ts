// One deployment's share of a NATS server. Every stream, subject and durable name the services
// use is put under the deployment's scope here, and nowhere else, so two deployments (or two test
// runs) on one server never take each other's events: a subject `diligence.job.created` travels
// as `<scope>.diligence.job.created` (the whole deployment is `<scope>.>`, one permission in a
// NATS account), in stream `DILIGENCE_<scope>`, read by durable `diligence-worker_<scope>`.
// Handlers and listeners see the unscoped subjects they asked for.

import type { EventBus, SubscribeOptions, Subscription } from './bus.js';

export const BUS_SCOPE_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

export interface BusNames {
  stream(name: string): string;
  subject(subject: string): string;
  durable(name: string): string;
  /** The subject as the services know it; undefined for one outside the scope. */
  unscoped(subject: string): string | undefined;
}

/** The names under `scope`; `undefined` is no scope at all: D27's names as they are. */
export function busNames(scope: string | undefined): BusNames {
  if (scope === undefined) return { stream: (n) => n, subject: (s) => s, durable: (n) => n, unscoped: (s) => s };
  if (!BUS_SCOPE_PATTERN.test(scope)) throw new Error(`invalid bus scope "${scope}" (letters, digits, _ and -, at most 32)`);
  const prefix = `${scope}.`;
  return {
    stream: (name) => `${name}_${scope}`,
    subject: (subject) => prefix + subject,
    durable: (name) => `${name}_${scope}`,
    unscoped: (subject) => (subject.startsWith(prefix) ? subject.slice(prefix.length) : undefined),
  };
}

/** `bus` with every name put under `scope` (see above); closing it closes `bus`. */
export function scopeBus(bus: EventBus, scope: string | undefined): EventBus {
  if (scope === undefined) return bus;
  const names = busNames(scope);
  const scopedOptions = (options: SubscribeOptions): SubscribeOptions => ({
    ...options,
    durable: names.durable(options.durable),
    subjects: options.subjects.map(names.subject),
  });
  return {
    kind: bus.kind,
    ensureStream: (stream, subjects) => bus.ensureStream(names.stream(stream), subjects.map(names.subject)),
    publish: (subject, data, options) => bus.publish(names.subject(subject), data, options),
    subscribe: (stream, options, handler): Promise<Subscription> =>
      bus.subscribe(names.stream(stream), scopedOptions(options), (event) => handler({ ...event, subject: names.unscoped(event.subject) ?? event.subject })),
    broadcast: (subject, data) => bus.broadcast(names.subject(subject), data),
    listen: (filter, handler) =>
      bus.listen(names.subject(filter), (subject, data) => {
        const own = names.unscoped(subject);
        if (own !== undefined) handler(own, data);
      }),
    close: () => bus.close(),
  };
}
