import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './open.js';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Every byte value, then a pseudo-random run long enough to leave Buffer's small-allocation pool. */
function sampleBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = 12345;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    bytes[i] = i < 256 ? i : state >>> 24;
  }
  return bytes;
}

describe.each(['pglite', 'postgres'] as const)('bytea values on %s', (kind) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openDatabase(kind === 'postgres' ? { databaseUrl: TEST_DATABASE_URL, maxConnections: 1 } : {});
  });
  afterAll(async () => {
    await database?.close();
  });

  it.each([0, 1, 300, 5_000, 2_000_000])('a parameter of %i bytes comes back byte for byte, as bytes', async (length) => {
    const sent = sampleBytes(length);
    const { rows } = await sql<{ back: Uint8Array; length: number; md5: string }>`
      select ${sent}::bytea as back, length(${sent}::bytea) as length, md5(${sent}::bytea) as md5`.execute(database.db);
    expect(rows[0]!.back).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(rows[0]!.back).equals(Buffer.from(sent))).toBe(true);
    // The server received the same bytes, not the text of them.
    expect(Number(rows[0]!.length)).toBe(length);
    expect(rows[0]!.md5).toBe(createHash('md5').update(sent).digest('hex'));
  });

  it('reads a stored value written from a view into a larger buffer', async () => {
    const whole = sampleBytes(10_000);
    const view = whole.subarray(1_000, 4_000);
    const { rows } = await sql<{ back: Uint8Array }>`select ${view}::bytea as back`.execute(database.db);
    expect(Buffer.from(rows[0]!.back).equals(Buffer.from(view))).toBe(true);
  });

  it('answers null for a null bytea', async () => {
    const { rows } = await sql<{ back: Uint8Array | null }>`select null::bytea as back`.execute(database.db);
    expect(rows[0]!.back).toBeNull();
  });
});
