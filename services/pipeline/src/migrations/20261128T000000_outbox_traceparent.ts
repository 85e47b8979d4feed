import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// The span that wrote an event (its W3C `traceparent`, null when tracing is off): the relay
// publishes the event under it, so the consumer's work joins the trace of the request behind it.
export const up = (db: Kysely<any>) =>
  statements(
    'alter table pipeline.outbox add column traceparent text',
  )(db);

export const down = (db: Kysely<any>) =>
  statements(
    'alter table pipeline.outbox drop column traceparent',
  )(db);
