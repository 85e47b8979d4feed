import { sql } from 'kysely';
import type { CatalogDb } from '../schema.js';

/** Runs accepted and not over yet, across every process: what the runs-in-flight gauge shows. */
export async function countLiveRuns(db: CatalogDb): Promise<number> {
  const { rows } = await sql<{ live: number }>`select count(*)::integer as live from catalog.runs where status in ('queued', 'running')`.execute(db);
  return rows[0]?.live ?? 0;
}
