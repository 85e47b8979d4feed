// Planner statistics for the vintage prepare reads. Prepare reads the base vintage's parcels in
// pages of 2,000 keys (parcel_key = any(keys)): with statistics that is an index scan of 2,000
// rows; on a partition never analyzed (a vintage just imported, before autovacuum came by) the
// planner misjudges the rows a page matches — with keyset pages it chose a bitmap scan of every
// remaining row and a sort, 1.3 s a page at 1,000,000 parcels (measured).

import { sql } from 'kysely';
import type { ProcessDatabase } from '@landscreen/db';

/** Analyzes the current vintage's partition of `market` if it has never been analyzed. */
export async function analyzeBaseVintage(db: ProcessDatabase, market: string): Promise<void> {
  const { rows } = await sql<{ vintage: string | null }>`
    select current_vintage_id::text as vintage from discovery.markets where slug = ${market}`.execute(db);
  const vintage = rows[0]?.vintage;
  if (!vintage) return; // deriveVintage reports the missing market or vintage
  const table = `parcels_${vintage.replaceAll('-', '')}`;
  const stats = await sql<{ analyzed: boolean }>`
    select coalesce(s.last_analyze, s.last_autoanalyze) is not null as analyzed
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    left join pg_stat_user_tables s on s.relid = c.oid
    where n.nspname = 'discovery' and c.relname = ${table}`.execute(db);
  if (stats.rows.length === 0 || stats.rows[0].analyzed) return;
  await sql.raw(`analyze discovery.${table}`).execute(db);
}
