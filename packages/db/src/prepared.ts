import { sql } from 'kysely';
import pg from 'pg';

const MARK = '/* prepared */ ';

/**
 * Put first in a hot statement (``sql`${PREPARED}select …` ``) to have PostgreSQL parse and plan it
 * once per connection instead of on every call: on a one-row claim, planning a CTE was a third of
 * the backend's time. Only for statements whose text never changes with their inputs (values go in
 * as parameters), so each has one server-side statement per connection; PGlite runs it as written.
 */
export const PREPARED = sql.raw(MARK);

const names = new Map<string, string>();

/** The statement's name on every connection: the same text always gets the same name. */
function statementName(text: string): string {
  let name = names.get(text);
  if (!name) names.set(text, (name = `landscreen_prepared_${names.size + 1}`));
  return name;
}

/**
 * The pool's client: a statement that starts with PREPARED goes out as a named statement, which
 * node-postgres prepares on a connection the first time and then only binds and executes.
 */
export class PreparingClient extends pg.Client {
  // node-postgres overloads query(); Kysely calls query(text, values) and awaits the promise.
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config === 'string' && config.startsWith(MARK)) {
      return super.query({ name: statementName(config), text: config, values }, callback);
    }
    return super.query(config, values, callback);
  }
}
