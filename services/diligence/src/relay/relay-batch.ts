import { context } from '@opentelemetry/api';
import { sql } from 'kysely';
import { contextFromTraceparent } from '@landscreen/telemetry';
import type { ProcessDatabase } from '@landscreen/db';
import type { EventBus } from '@landscreen/events';
import type { FaultInjector } from '@landscreen/rpc';
import { DILIGENCE_OUTBOX } from './outbox-table.js';

/** Fault point between "published" and "marked published": a relay crash at the worst moment. */
export const RELAY_FAULT_AFTER_PUBLISH = 'diligence.relay.after-publish';

interface OutboxRow {
  id: string;
  subject: string;
  data: unknown;
  traceparent: string | null;
}

/**
 * Relays one batch of the outbox (D27) and answers how many events it published.
 *
 * The batch is claimed with `for update skip locked` inside a transaction that stays open until
 * the rows are marked published, so several relays (replicas of the diligence service) take
 * disjoint batches and a row is never marked before its event is stored by the stream. A crash or
 * failed publish after some events were stored rolls the marks back; the retry publishes them
 * again under the same id (`Nats-Msg-Id`), which the stream's duplicate window drops.
 *
 * Events are issued in `seq` order on one connection without waiting for each ack (one round
 * trip per batch, not per event); NATS keeps a connection's order, so the stream stores them in
 * that order.
 */
export async function relayBatch(db: ProcessDatabase, bus: EventBus, batchSize: number, faults?: FaultInjector, table = DILIGENCE_OUTBOX.table): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // SQL text on the process handle: the table is any service's outbox (outbox-table.ts).
    const { rows } = await sql<OutboxRow>`
      select id, subject, data, traceparent from ${sql.table(table)}
      where published_at is null
      order by seq
      limit ${batchSize}
      for update skip locked`.execute(trx);
    if (rows.length === 0) return 0;
    // Each under the span that wrote it, so the publish and the consumers join that request's trace.
    await Promise.all(rows.map((row) => context.with(contextFromTraceparent(row.traceparent), () => bus.publish(row.subject, row.data, { id: row.id }))));
    await faults?.(RELAY_FAULT_AFTER_PUBLISH);
    const ids = rows.map((row) => row.id);
    await sql`update ${sql.table(table)} set published_at = now() where id = any(${ids}::uuid[])`.execute(trx);
    return rows.length;
  });
}
