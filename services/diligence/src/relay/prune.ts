import { sql } from 'kysely';
import type { ProcessDatabase } from '@landscreen/db';
import { DILIGENCE_OUTBOX } from './outbox-table.js';

/** Rows looked at per prune statement: a bounded index scan however large the outbox is. */
export const PRUNE_BATCH = 10_000;

/**
 * Deletes published outbox rows written more than `retentionHours` ago and answers how many went.
 * The outbox exists to hand events to the stream (D27); once JetStream holds an event and its
 * duplicate window is long past, the row only costs disk and index space, and at a thousand
 * claims a second it would grow by tens of millions of rows a day.
 *
 * Each statement looks at the oldest rows by `seq` only (an index scan that stops after
 * `PRUNE_BATCH`, no index on the dates needed) and deletes those that are published and old
 * enough; an unpublished row is never deleted, whatever its age. Callers repeat while a statement
 * deletes a full batch. Several relays may prune at once: a row two of them pick is deleted once,
 * the other's delete waits on it and then finds it gone.
 */
export async function pruneOutbox(db: ProcessDatabase, retentionHours: number, batch = PRUNE_BATCH, table = DILIGENCE_OUTBOX.table): Promise<number> {
  // SQL text on the process handle: the table is any service's outbox (outbox-table.ts).
  const result = await sql`
    delete from ${sql.table(table)} where id in (
      select id from (select id, published_at, created_at from ${sql.table(table)} order by seq limit ${batch}) oldest
      where published_at is not null and created_at < now() - make_interval(hours => ${retentionHours}))`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
