import type { CatalogDb } from '../schema.js';

/** Runs accepted and not over yet, across every process: what the runs-in-flight gauge shows. */
export async function countLiveRuns(db: CatalogDb): Promise<number> {
  const row = await db
    .selectFrom('runs')
    .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('live'))
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return row?.live ?? 0;
}
