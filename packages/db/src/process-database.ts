import type { Kysely } from 'kysely';
import { registerView } from './copy-out.js';

/**
 * The database handle a process opens: no tables of its own in the type, because every table
 * belongs to a service's schema. Queries on it are raw SQL that names its schemas (migrations,
 * health checks, cross-schema reads); typed queries go through a service's view (`schemaView`).
 * Neither converts to the other silently: a function that wants a service's view does not compile
 * when handed the process handle, whose query builder would resolve tables on the search path.
 */
export type ProcessDatabase = Kysely<{}>;

/**
 * A service's typed view of the process database: every table the query builder names lands in
 * `schema`. Bulk reads (copyOut) work through the view as they do through the handle.
 */
export function schemaView<Database>(db: ProcessDatabase, schema: string): Kysely<Database> {
  const view = db.withSchema(schema) as unknown as Kysely<Database>;
  registerView(view, db);
  return view;
}
