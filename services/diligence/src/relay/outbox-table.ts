import { DILIGENCE_STREAM, DILIGENCE_SUBJECTS } from '@landscreen/events';

/**
 * An outbox table (id uuid, seq, subject, data jsonb, created_at, published_at; a partial index on
 * seq where unpublished) and the JetStream stream its events go to. The relay, the batch and the
 * prune work on any such table, so a service with its own outbox (the pipeline's lead requests,
 * D30) runs the same machinery rather than a copy.
 */
export interface OutboxTable {
  /** Schema-qualified, e.g. `diligence.outbox`. */
  table: string;
  stream: string;
  subjects: string[];
}

export const DILIGENCE_OUTBOX: OutboxTable = { table: 'diligence.outbox', stream: DILIGENCE_STREAM, subjects: DILIGENCE_SUBJECTS };
