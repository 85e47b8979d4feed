import type { DiligenceTransaction } from '../schema.js';
import type { DiligenceSubject } from '@landscreen/events';
import { currentTraceparent } from '@landscreen/telemetry';

/**
 * D27: records an event in the outbox, inside the caller's transaction, so the event exists if and
 * only if the state change it describes committed. The relay publishes it with its id as
 * `Nats-Msg-Id`, under the span that wrote it (its `traceparent`).
 */
export async function recordEvent(trx: DiligenceTransaction, subject: DiligenceSubject, data: Record<string, unknown>): Promise<string> {
  const row = await trx
    .insertInto('outbox')
    .values({ subject, data: JSON.stringify(data), traceparent: currentTraceparent() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
