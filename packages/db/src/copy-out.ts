import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { PreparingClient, PreparingClientConfig } from './prepared.js';
import { QueryTimeoutError } from './unavailable.js';

/**
 * Bulk reads through `COPY (…) TO STDOUT (FORMAT binary)`: every field arrives as its raw bytes.
 * A query's result would bring a bytea as hex text, twice its size, which node-postgres then
 * decodes: reading a million-parcel vintage's 307 MB of stored columns took ~3.6 s that way.
 */

/** The pool behind each PostgreSQL Kysely instance this package opened. */
const pools = new WeakMap<Kysely<any>, pg.Pool>();

export function registerPool(db: Kysely<any>, pool: pg.Pool): void {
  pools.set(db, pool);
}

/** A view of `db` (withSchema) reads through the same pool. */
export function registerView(view: Kysely<any>, db: Kysely<any>): void {
  const pool = pools.get(db);
  if (pool) pools.set(view, pool);
}

/** Whether `copyOut` can read through `db` (PostgreSQL opened here; not PGlite). */
export function canCopyOut(db: Kysely<any>): boolean {
  return pools.has(db);
}

/**
 * The rows of `COPY (<select>) TO STDOUT (FORMAT binary)`, each as its fields' bytes (null for
 * SQL NULL). COPY takes no bind parameters: `select` must hold only trusted literals. Text comes
 * as UTF-8 and bytea as itself; cast anything else to text.
 */
export async function copyOut(db: Kysely<any>, select: string): Promise<(Buffer | null)[][]> {
  const pool = pools.get(db);
  if (!pool) throw new Error('copyOut needs a PostgreSQL database opened by @landscreen/db');
  // One statement: the simple-query protocol would run anything after a ";".
  if (select.includes(';')) throw new Error('copyOut takes a single select');
  const client = (await pool.connect()) as unknown as PreparingClient & pg.PoolClient;
  // The query timeout bounds silence, not the whole copy: hundreds of megabytes take seconds, but
  // a connection that stops sending anything (black-holed) is dropped. The pool's 'connect'
  // listener keeps a connection lost mid-copy from crashing the process.
  const silenceMs = (pool.options as PreparingClientConfig).clientQueryTimeoutMs ?? 0;
  let silence: NodeJS.Timeout | undefined;
  if (silenceMs > 0) silence = setTimeout(() => client.drop(new QueryTimeoutError(silenceMs)), silenceMs);
  const heard = () => void silence?.refresh();
  try {
    const rows = await new Promise<(Buffer | null)[][]>((resolve, reject) => void client.query(new CopyToRows(`copy (${select}) to stdout (format binary)`, resolve, reject, heard) as never));
    client.release();
    return rows;
  } catch (error) {
    // Discarded, not returned to the pool: a server that ends the connection (a FATAL error, a
    // failover) reports it like any statement error.
    client.release(error as Error);
    throw error;
  } finally {
    clearTimeout(silence);
  }
}

/**
 * A node-postgres "submittable": the client hands it the connection and the server's messages
 * for the query (the interface pg's own Query implements).
 */
class CopyToRows {
  private readonly parser = new BinaryCopyParser();
  /** A stream this cannot read; answered once the server is done with the statement. */
  private failure: Error | undefined;

  constructor(
    private readonly text: string,
    private readonly resolve: (rows: (Buffer | null)[][]) => void,
    private readonly reject: (error: Error) => void,
    /** Called at every chunk: the connection is alive. */
    private readonly heard: () => void,
  ) {}

  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  handleCopyData(message: { chunk: Buffer }): void {
    this.heard();
    if (this.failure) return;
    try {
      this.parser.push(message.chunk);
    } catch (error) {
      this.failure = error as Error; // thrown here, it would escape the client's message handler
    }
  }

  handleCommandComplete(): void {}

  /** The client drops a query at its error, so this is the end of it (as for pg's own Query). */
  handleError(error: Error): void {
    this.reject(error);
  }

  handleReadyForQuery(): void {
    try {
      if (this.failure) throw this.failure;
      this.resolve(this.parser.end());
    } catch (error) {
      this.reject(error as Error);
    }
  }
}

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const HEADER_LENGTH = SIGNATURE.length + 8; // flags, header extension length

/**
 * PostgreSQL's binary COPY format: a header, then per row a field count and length-prefixed
 * fields, then a count of −1. Fed the stream's chunks as they come; each field is copied out
 * into a buffer of its own (starting its own memory, so any typed array can view it): the
 * chunks belong to the protocol parser, which reuses its memory.
 */
export class BinaryCopyParser {
  private readonly rows: (Buffer | null)[][] = [];
  /** Bytes of a header or row not yet whole, held over to the next chunk. */
  private pending = Buffer.alloc(0);
  private headerRead = false;
  private ended = false;

  push(chunk: Buffer): void {
    const data = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    let at = 0;
    if (!this.headerRead) {
      if (data.length < HEADER_LENGTH) return this.hold(data, 0);
      if (!data.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error('not a binary COPY stream');
      const extension = data.readInt32BE(SIGNATURE.length + 4);
      if (extension < 0) throw new Error('not a binary COPY stream');
      if (data.length < HEADER_LENGTH + extension) return this.hold(data, 0);
      at = HEADER_LENGTH + extension;
      this.headerRead = true;
    }
    while (!this.ended && at + 2 <= data.length) {
      const fields = data.readInt16BE(at);
      if (fields === -1) {
        this.ended = true;
        at += 2;
        break;
      }
      const row = this.readRow(data, at + 2, fields);
      if (!row) break;
      this.rows.push(row.fields);
      at = row.end;
    }
    this.hold(data, at);
  }

  end(): (Buffer | null)[][] {
    if (!this.ended) throw new Error(this.headerRead || this.pending.length > 0 ? 'binary COPY stream ended early' : 'not a binary COPY stream');
    return this.rows;
  }

  /** The row's fields from `at`, or undefined when the data holds only part of it. */
  private readRow(data: Buffer, at: number, count: number): { fields: (Buffer | null)[]; end: number } | undefined {
    const fields: (Buffer | null)[] = [];
    for (let field = 0; field < count; field++) {
      if (at + 4 > data.length) return undefined;
      const length = data.readInt32BE(at);
      at += 4;
      if (length === -1) {
        fields.push(null);
        continue;
      }
      if (at + length > data.length) return undefined;
      const copy = Buffer.allocUnsafeSlow(length);
      data.copy(copy, 0, at, at + length);
      fields.push(copy);
      at += length;
    }
    return { fields, end: at };
  }

  private hold(data: Buffer, from: number): void {
    this.pending = from >= data.length ? Buffer.alloc(0) : Buffer.from(data.subarray(from));
  }
}

/** The rows of a whole binary COPY stream, however it is cut into chunks. */
export function parseBinaryCopy(chunks: Buffer[]): (Buffer | null)[][] {
  const parser = new BinaryCopyParser();
  for (const chunk of chunks) parser.push(chunk);
  return parser.end();
}
