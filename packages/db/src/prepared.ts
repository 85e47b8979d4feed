import { sql } from 'kysely';
import pg from 'pg';
import { UNBOUNDED_MARK } from './timeouts.js';
import { QueryTimeoutError } from './unavailable.js';

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

/** What the pool hands each client besides node-postgres's own settings (open.ts). */
export interface PreparingClientConfig extends pg.ClientConfig {
  /** Client-side query timeout in ms; 0 or absent: none. */
  clientQueryTimeoutMs?: number;
}

/**
 * The pool's client: a statement that starts with PREPARED goes out as a named statement, which
 * node-postgres prepares on a connection the first time and then only binds and executes.
 *
 * It also bounds how long a query waits for its answer. node-postgres's own `query_timeout`
 * rejects the query but keeps the connection, which then still owes that answer: the next query
 * queues behind it, on a connection that may be black-holed. Here the connection is dropped
 * instead, so the query fails with QueryTimeoutError and the pool discards the client.
 */
export class PreparingClient extends pg.Client {
  private readonly queryTimeoutMs: number;
  /** Set by a statement marked UNBOUNDED_MARK; cleared when the pool gets the client back. */
  unbounded = false;

  constructor(config?: PreparingClientConfig) {
    super(config);
    this.queryTimeoutMs = config?.clientQueryTimeoutMs ?? 0;
  }

  // node-postgres overloads query(); Kysely calls query(text, values) and awaits the promise.
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config === 'string' && config.startsWith(UNBOUNDED_MARK)) this.unbounded = true;
    const query = typeof config === 'string' && config.startsWith(MARK) ? { name: statementName(config), text: config, values } : config;
    const result = query === config ? super.query(config, values, callback) : super.query(query, callback);
    // Bounded: promise-style text queries (all of Kysely's). Submittables (copy-out) keep their own watch.
    if (this.queryTimeoutMs > 0 && !this.unbounded && result instanceof Promise) return this.bounded(result);
    return result;
  }

  private bounded<T>(answer: Promise<T>): Promise<T> {
    const timer = setTimeout(() => this.drop(new QueryTimeoutError(this.queryTimeoutMs)), this.queryTimeoutMs);
    return answer.finally(() => clearTimeout(timer));
  }

  /** Ends the connection at once: every query on it fails with `error`, the client is not reused. */
  drop(error: Error): void {
    (this.connection as unknown as { stream: { destroy(error?: Error): void } }).stream.destroy(error);
  }
}
