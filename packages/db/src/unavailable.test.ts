import net from 'node:net';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './open.js';
import { isDatabaseUnavailable, QueryTimeoutError } from './unavailable.js';

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each<[string, unknown]>([
    ['admin shutdown (pg_terminate_backend)', withCode('57P01', 'terminating connection due to administrator command')],
    ['crash shutdown', withCode('57P02')],
    ['cannot connect now (starting up)', withCode('57P03', 'the database system is starting up')],
    ['too many connections', withCode('53300', 'sorry, too many clients already')],
    ['statement cancelled by its timeout', withCode('57014', 'canceling statement due to statement timeout')],
    ['connection exception (class 08)', withCode('08006')],
    ['connection does not exist (class 08)', withCode('08003')],
    ...['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND'].map((code): [string, unknown] => [`socket ${code}`, withCode(code)]),
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('Connection terminated due to connection timeout')],
    ['the pool\'s checkout timeout', new Error('timeout exceeded when trying to connect')],
    ['a query on a broken client', new Error('Client has encountered a connection error and is not queryable')],
    ['the client-side query timeout', new QueryTimeoutError(100)],
    ['node-postgres\'s own query timeout', new Error('Query read timeout')],
    ['a wrapped cause', new Error('rollback failed', { cause: withCode('ECONNRESET') })],
    ['a dial over several addresses', Object.assign(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]), { code: undefined })],
  ])('counts %s as unavailable', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each<[string, unknown]>([
    ['a unique violation', withCode('23505', 'duplicate key value violates unique constraint')],
    ['a syntax error', withCode('42601')],
    ['a serialization failure', withCode('40001')],
    ['an invalid text representation', withCode('22P02')],
    ['an ordinary bug', new TypeError('cannot read properties of undefined')],
    ['a string', 'ECONNRESET'],
    ['nothing', undefined],
  ])('does not count %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('stops following a cause chain that loops', () => {
    const error = new Error('a') as Error & { cause?: unknown };
    error.cause = error;
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('isDatabaseUnavailable on what node-postgres really throws', () => {
  it('a refused connection', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const database = await openDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${port}/test` });
    try {
      const error = await sql`select 1`.execute(database.db).then(() => undefined, (failure: unknown) => failure);
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await database.close();
    }
  });

  it('a server that accepts and never answers, within the connect timeout', async () => {
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const database = await openDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${port}/test`, timeouts: { connectTimeoutMs: 300 } });
    try {
      // A server that never answers: only the connect timeout ends the wait.
      const error = await sql`select 1`.execute(database.db).then(() => undefined, (failure: unknown) => failure);
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await database.close();
      silent.close();
    }
  });
});
