import type { PipelineTransaction } from './schema.js';

/**
 * Takes a transaction-scoped advisory lock on `name` (hashed to PostgreSQL's 64-bit lock key):
 * held until the transaction ends, so whatever else takes the same name waits for the commit.
 */
export async function advisoryLock(trx: PipelineTransaction, name: string): Promise<void> {
  await trx.selectNoFrom((eb) => eb.fn('pg_advisory_xact_lock', [eb.fn('hashtextextended', [eb.val(name), eb.lit(0)])]).as('locked')).execute();
}
