// Which deployment a database is: a short name every process of one deployment derives alike,
// whatever address it reaches the database by, and two deployments do not share. A deployment is
// its database: the cluster (PostgreSQL's system identifier, set by initdb) and the database's
// name on it. Names the bus puts its streams, subjects and durables under (BUS_SCOPE's default).

import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { ProcessDatabase } from './process-database.js';

/**
 * 16 hex digits. `extra` tells apart what the database cannot: PGlite directories copied from one
 * template share the cluster and the name, so the embedded default passes its host and directory.
 */
export async function deploymentScope(db: ProcessDatabase, extra: string[] = []): Promise<string> {
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(db);
  let cluster = '';
  try {
    const system = await sql<{ id: string }>`select system_identifier::text as id from pg_control_system()`.execute(db);
    cluster = system.rows[0]?.id ?? '';
  } catch {
    // A managed server may revoke pg_control_system(); then the name alone says which database.
  }
  return createHash('sha256').update([cluster, rows[0]!.name, ...extra].join('\u0000')).digest('hex').slice(0, 16);
}
