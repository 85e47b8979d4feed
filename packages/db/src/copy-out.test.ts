import net from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canCopyOut, copyOut, parseBinaryCopy } from './copy-out.js';
import { openDatabase, type DatabaseHandle } from './open.js';
import { schemaView } from './process-database.js';
import { QueryTimeoutError } from './unavailable.js';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

describe('copyOut on PostgreSQL', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openDatabase({ databaseUrl: TEST_DATABASE_URL, maxConnections: 2 });
  });
  afterAll(() => database?.close());

  it('answers every row\'s fields as bytes, NULL as null, blobs of megabytes whole', async () => {
    const rows = await copyOut(
      database.db,
      `select n::text, case when n = 2 then null else decode(repeat(lpad(to_hex(n), 2, '0'), n * 1000000), 'hex') end, 'é'::text
       from generate_series(1, 3) as n`,
    );
    expect(rows.map(([n, , text]) => [n!.toString(), text!.toString('utf8')])).toEqual([['1', 'é'], ['2', 'é'], ['3', 'é']]);
    // Buffer.equals, not toEqual: a deep comparison of megabytes takes seconds.
    expect(rows[0]![1]!.equals(Buffer.alloc(1_000_000, 1))).toBe(true);
    expect(rows[1]![1]).toBeNull();
    expect(rows[2]![1]!.equals(Buffer.alloc(3_000_000, 3))).toBe(true);
    expect(await copyOut(database.db, 'select 1 where false')).toEqual([]);
  });

  it('reads through a service\'s schema view as through the handle', async () => {
    const view = schemaView<{ pg_class: { relname: string } }>(database.db, 'pg_catalog');
    expect(canCopyOut(view)).toBe(true);
    expect(await copyOut(view, 'select 7::text')).toEqual([[Buffer.from('7')]]);
    expect(view.selectFrom('pg_class').select('relname').compile().sql).toBe('select "relname" from "pg_catalog"."pg_class"');
  });

  it('rejects a failing statement and leaves the pool usable', async () => {
    await expect(copyOut(database.db, 'select no_such_column from pg_class')).rejects.toThrow(/no_such_column/);
    for (let round = 0; round < 3; round++) expect(await copyOut(database.db, 'select 42::text')).toEqual([[Buffer.from('42')]]);
  });

  it('rejects, without crashing the process, when the connection dies mid-copy; the pool goes on', async () => {
    // Observed at once: it fails while this test is still waiting for the admin connection.
    // Long enough to be caught running on a busy machine; marked, so that only this copy is ended.
    const marker = `copy-test-${process.pid}-${Date.now()}`;
    const copying = copyOut(database.db, `select pg_sleep(20)::text || '${marker}'`).then(
      () => new Error('the copy did not fail'),
      (error: Error) => error,
    );
    const admin = await openDatabase({ databaseUrl: TEST_DATABASE_URL, maxConnections: 1 });
    try {
      // Wait for the COPY to be running, then end its backend as an operator (or a failover) would.
      const running = `copy (select pg_sleep(20)::text || '${marker}')%`;
      for (;;) {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where query like ${running}`.execute(admin.db);
        if (rows[0]!.n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where query like ${running}`.execute(admin.db);
    } finally {
      await admin.close();
    }
    expect((await copying).message).toMatch(/terminat/);
    expect(await copyOut(database.db, 'select 7::text')).toEqual([[Buffer.from('7')]]);
  });

  it('rejects, without crashing the process, when the network drops mid-copy', async () => {
    // A proxy to the server that cuts both sockets once 2 MB of the answer went through.
    const target = new URL(TEST_DATABASE_URL);
    const proxy = net.createServer((client) => {
      const server = net.connect(Number(target.port || 5432), target.hostname);
      let bytes = 0;
      server.on('data', (data: Buffer) => {
        bytes += data.length;
        if (bytes > 2_000_000) {
          client.destroy();
          server.destroy();
        } else client.write(data);
      });
      client.on('data', (data) => server.write(data));
      client.on('error', () => server.destroy());
      server.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const url = new URL(TEST_DATABASE_URL);
    url.host = `127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
    const through = await openDatabase({ databaseUrl: url.toString(), maxConnections: 1 });
    try {
      await expect(copyOut(through.db, "select repeat('x', 1000000) from generate_series(1, 20)")).rejects.toThrow(/terminated|ECONNRESET/);
    } finally {
      await through.close();
      proxy.close();
    }
  });

  it('is bounded by silence, not length: a copy that streams goes on, one that goes quiet is dropped', async () => {
    const bounded = await openDatabase({ databaseUrl: TEST_DATABASE_URL, maxConnections: 1, timeouts: { statementTimeoutMs: 0, queryTimeoutMs: 3_000 } });
    try {
      // ~6 s in all, twice the silence bound, a few rows (flushed in 8 kB messages) every 80 ms;
      // the bound is generous next to that gap, so a busy machine's pauses do not reach it.
      const rows = await copyOut(bounded.db, "select repeat('x', 1000) || pg_sleep(0.01)::text from generate_series(1, 600)");
      expect(rows).toHaveLength(600);
      // Without the silence bound this copy would succeed after 30 s.
      await expect(copyOut(bounded.db, 'select pg_sleep(30)::text')).rejects.toBeInstanceOf(QueryTimeoutError);
      expect(await copyOut(bounded.db, 'select 8::text')).toEqual([[Buffer.from('8')]]);
    } finally {
      await bounded.close();
    }
  });

  it('takes one select, nothing after a ";"', async () => {
    await expect(copyOut(database.db, "select 1) to stdout; drop table x; copy (select 1")).rejects.toThrow(/single select/);
  });

  it('is not offered on PGlite', async () => {
    const pglite = await openDatabase({});
    try {
      expect(canCopyOut(pglite.db)).toBe(false);
      expect(canCopyOut(database.db)).toBe(true);
      await expect(copyOut(pglite.db, 'select 1')).rejects.toThrow(/PostgreSQL/);
    } finally {
      await pglite.close();
    }
  });
});

describe('parseBinaryCopy', () => {
  // Header, a row of two fields ("ab" and NULL), a row of one empty field, the trailer.
  const stream = Buffer.concat([
    Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'),
    Buffer.from([0, 0, 0, 0, 0, 0, 0, 0]),
    Buffer.from([0, 2, 0, 0, 0, 2, 0x61, 0x62, 0xff, 0xff, 0xff, 0xff]),
    Buffer.from([0, 1, 0, 0, 0, 0]),
    Buffer.from([0xff, 0xff]),
  ]);
  const expected = [[Buffer.from('ab'), null], [Buffer.alloc(0)]];

  it('reads fields however the stream is cut into chunks', () => {
    expect(parseBinaryCopy([stream])).toEqual(expected);
    for (let size = 1; size <= stream.length; size++) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < stream.length; at += size) chunks.push(stream.subarray(at, at + size));
      expect(parseBinaryCopy(chunks)).toEqual(expected);
    }
  });

  it('refuses what is not a binary COPY stream, or one cut short', () => {
    expect(() => parseBinaryCopy([Buffer.from('PGCOPY\nnope and more')])).toThrow(/not a binary COPY/);
    expect(() => parseBinaryCopy([stream.subarray(0, stream.length - 3)])).toThrow(/ended early/);
  });
});
