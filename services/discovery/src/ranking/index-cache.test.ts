import { Code, ConnectError } from '@connectrpc/connect';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '@landscreen/rpc';
import { valueAt, type Dictionary } from './columns.js';
import { IndexCache } from './index-cache.js';
import { INDEX_FILE_VERSION, readIndexFile } from './index-file.js';
import { writeIndexFile } from './index-file.test-helper.js';
import { market } from './test-arbitraries.js';
import { VintageIndexBuilder, type VintageIndex } from './vintage-index.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-index-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const logger = createLogger('silent');
const FINGERPRINT = 'f'.repeat(64);

interface StoredHeader {
  columns: { field: string; section: [number] }[];
  records: { offset: number; stride: number };
}

/** The file with one byte changed where `where` says, from its header. */
function damageAt(bytes: Buffer, where: (header: StoredHeader) => number): Buffer {
  const copy = Buffer.from(bytes);
  copy[where(JSON.parse(copy.toString('utf8', 24, 24 + copy.readUInt32LE(12))))]! ^= 0x01;
  return copy;
}

const writeFile = (index: VintageIndex, file: string) => writeIndexFile(index, file, FINGERPRINT);

/**
 * The same index: keys, their order, every column byte for byte (NaN and -0 kept in numbers),
 * and every row's values read from the file's row records as the columns give them.
 */
async function expectSameIndex(actual: VintageIndex, expected: VintageIndex): Promise<void> {
  const fromRecords = await actual.rowValues(Array.from({ length: actual.size }, (_, row) => row));
  for (const field of expected.fields()) {
    const want = expected.column(field)!;
    const asStored = (value: unknown) => (want.kind === 'mixed' ? JSON.parse(JSON.stringify(value)) : value);
    for (let row = 0; row < expected.size; row++) expect(fromRecords(field, row)).toEqual(asStored(valueAt(want, row)));
  }
  expect(fromRecords('absent-field', 0)).toBeNull();
  await actual.columnsFor(actual.fields());
  expect(actual.vintageId).toBe(expected.vintageId);
  expect(actual.size).toBe(expected.size);
  const keysOf = (index: VintageIndex) => Array.from({ length: index.keys.length }, (_, row) => index.keys.at(row));
  expect(keysOf(actual)).toEqual(keysOf(expected));
  expect(actual.keys.at(actual.size)).toBeUndefined();
  expect([...actual.rowsByKey]).toEqual([...expected.rowsByKey]);
  expect([...actual.keyRank]).toEqual([...expected.keyRank]);
  const fields = [...expected.entries()].map(([field]) => field);
  expect([...actual.entries()].map(([field]) => field)).toEqual(fields);
  for (const field of fields) {
    const [got, want] = [actual.column(field)!, expected.column(field)!];
    expect(got.kind).toBe(want.kind);
    if (got.kind === 'number' && want.kind === 'number') expect(Buffer.from(got.values.buffer, got.values.byteOffset, got.values.byteLength).equals(Buffer.from(want.values.buffer, want.values.byteOffset, want.values.byteLength))).toBe(true);
    else if (got.kind === 'coded' && want.kind === 'coded') {
      expect(got.slots.BYTES_PER_ELEMENT).toBe(want.slots.BYTES_PER_ELEMENT);
      expect([...got.slots]).toEqual([...want.slots]);
      const entries = (dictionary: Dictionary) => Array.from({ length: dictionary.length }, (_, code) => dictionary.at(code));
      expect(entries(got.dictionary)).toEqual(entries(want.dictionary));
    }
    // Mixed values are JSON in the file as in the database (column-store.ts): -0 comes back 0 from both.
    const asStored = (value: unknown) => (want.kind === 'mixed' ? JSON.parse(JSON.stringify(value)) : value);
    for (let row = 0; row < expected.size; row++) expect(valueAt(got, row)).toEqual(asStored(valueAt(want, row)));
  }
}

function smallIndex(vintageId = randomUUID()): VintageIndex {
  const builder = new VintageIndexBuilder(vintageId);
  const owners = ['Zoë', 'Ann', '東京 Land', 'Ann', ''];
  ['b', 'a', 'é', 'Z', 'a-1'].forEach((key, row) =>
    // A field named in any text: the header is padded in bytes, not characters.
    builder.add(key, { acres: row * 10.5, zoning: row % 2 ? 'ag' : 'industrial', owner: owners[row], flag: row % 2 === 0, odd: row === 3 ? { any: 'thing' } : row, 'fläche_m²': row }),
  );
  return builder.build();
}

describe('a vintage index file', () => {
  it('reads back exactly the index it was written from, whatever the market', async () => {
    const file = path.join(dir, 'property.index');
    await fc.assert(
      fc.asyncProperty(market(40), async (index) => {
        await writeFile(index, file);
        await expectSameIndex(await readIndexFile(file, index.vintageId, FINGERPRINT), index);
      }),
      { numRuns: 60 },
    );
  });

  it('opens with the keys alone, and reads each column into a buffer of its own when asked for', async () => {
    const index = smallIndex();
    const file = path.join(dir, 'aligned.index');
    await writeFile(index, file);
    const read = await readIndexFile(file, index.vintageId, FINGERPRINT);
    expect(read.resident.residentFields()).toEqual([]);
    expect(() => read.column('acres')).toThrow(/not resident/);
    expect(read.column('no-such-field')).toBeUndefined();
    const columns = await read.columnsFor(['acres', 'zoning', 'no-such-field']);
    expect(read.resident.residentFields()).toEqual(['acres', 'zoning']);
    expect(columns('no-such-field')).toBeUndefined();
    for (const column of [columns('acres')!, columns('zoning')!]) {
      const array = column.kind === 'number' ? column.values : column.kind === 'coded' ? column.slots : undefined;
      expect(array!.byteOffset).toBe(0);
      expect(array!.buffer.byteLength).toBe(array!.byteLength);
    }
  });
});

describe('the local index cache', () => {
  let cache: IndexCache;
  let index: VintageIndex;
  beforeEach(async () => {
    rmSync(dir, { recursive: true, force: true });
    cache = new IndexCache(dir, logger);
    index = smallIndex();
    cache.write(index, FINGERPRINT);
    await cache.flush();
  });

  it('writes the index whole, under its vintage id, and reads it back', async () => {
    expect(readdirSync(dir)).toEqual([`${index.vintageId}.index`]);
    await expectSameIndex((await cache.read(index.vintageId, FINGERPRINT))!, index);
  });

  it('has nothing for a vintage never written', async () => {
    expect(await cache.read(randomUUID(), FINGERPRINT)).toBeUndefined();
  });

  const damages: [string, (bytes: Buffer) => Buffer][] = [
    ['truncated', (bytes) => bytes.subarray(0, bytes.length - 9)],
    ['cut inside its header', (bytes) => bytes.subarray(0, 30)],
    ['empty', () => Buffer.alloc(0)],
    ['with one byte of its keys changed (only the checksum tells)', (bytes) => {
      const copy = Buffer.from(bytes);
      const header = JSON.parse(copy.toString('utf8', 24, 24 + copy.readUInt32LE(12)));
      copy[header.keys[0] + 1]! ^= 0x01;
      return copy;
    }],
    ['with its last byte changed', (bytes) => {
      const copy = Buffer.from(bytes);
      copy[copy.length - 1]! ^= 0x01;
      return copy;
    }],
    ['with one byte of its header changed', (bytes) => {
      const copy = Buffer.from(bytes);
      copy[30]! ^= 0x01;
      return copy;
    }],
    ['of another format version', (bytes) => {
      const copy = Buffer.from(bytes);
      copy.writeUInt32LE(INDEX_FILE_VERSION + 1, 8);
      return copy;
    }],
    ['not an index file at all', () => Buffer.from('{"keys":[]}')],
  ];
  it.each(damages)('ignores a file %s, and deletes it so that it is rebuilt', async (_name, damage) => {
    const file = cache.pathOf(index.vintageId);
    writeFileSync(file, damage(readFileSync(file)));
    expect(await cache.read(index.vintageId, FINGERPRINT)).toBeUndefined();
    expect(existsSync(file)).toBe(false);
    cache.write(index, FINGERPRINT);
    await cache.flush();
    await expectSameIndex((await cache.read(index.vintageId, FINGERPRINT))!, index);
  });

  const laterDamages: [string, (header: StoredHeader) => number, (index: VintageIndex) => Promise<unknown>][] = [
    ['a column', (header) => header.columns.find((column) => column.field === 'acres')!.section[0] + 1, (read) => read.columnsFor(['acres'])],
    ['a row record', (header) => header.records.offset + 2 * header.records.stride + 1, (read) => read.rowValues([2])],
  ];
  it.each(laterDamages)('ignores a file with one byte of %s changed, and deletes it so that it is rebuilt', async (_name, where) => {
    const file = cache.pathOf(index.vintageId);
    writeFileSync(file, damageAt(readFileSync(file), where));
    expect(await cache.read(index.vintageId, FINGERPRINT)).toBeUndefined();
    expect(existsSync(file)).toBe(false);
  });
  it.each(laterDamages)('fails the read of %s damaged after the file was opened, and deletes the file', async (_name, where, use) => {
    const file = cache.pathOf(index.vintageId);
    const read = (await cache.read(index.vintageId, FINGERPRINT))!;
    // Rewritten in place: the open file is this one still.
    writeFileSync(file, damageAt(readFileSync(file), where));
    let damaged = 0;
    read.resident.onDamaged = () => damaged++;
    // The caller is told to retry (503 index_reloading at the gateway), never handed a wrong value.
    const failure = await use(read).then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(ConnectError);
    expect((failure as ConnectError).code).toBe(Code.Unavailable);
    expect((failure as ConnectError).rawMessage).toMatch(/being read again/);
    expect(damaged).toBe(1);
    await vi.waitFor(() => expect(existsSync(file)).toBe(false));
    // Other rows and columns read fine meanwhile.
    expect((await read.columnsFor(['zoning']))('zoning')).toBeDefined();
  });

  it('ignores a file made from other stored columns (another fingerprint)', async () => {
    expect(await cache.read(index.vintageId, 'e'.repeat(64))).toBeUndefined();
    expect(existsSync(cache.pathOf(index.vintageId))).toBe(false);
  });

  it('ignores a file of another vintage put under this vintage\'s name', async () => {
    const other = randomUUID();
    writeFileSync(cache.pathOf(other), readFileSync(cache.pathOf(index.vintageId)));
    expect(await cache.read(other, FINGERPRINT)).toBeUndefined();
  });

  it('evicts superseded vintages, long-unused unknown ones and abandoned temporary files, and keeps the current', async () => {
    const [superseded, unknownRecent, unknownOld] = [randomUUID(), randomUUID(), randomUUID()];
    const old = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    for (const id of [superseded, unknownRecent, unknownOld]) writeFileSync(cache.pathOf(id), 'x');
    utimesSync(cache.pathOf(unknownOld), old, old);
    const abandoned = `${cache.pathOf(superseded)}.123.abcd.tmp`;
    writeFileSync(abandoned, 'x');
    utimesSync(abandoned, old, old);
    const evicted = await cache.evict(new Set([index.vintageId]), new Set([index.vintageId, superseded]));
    expect(evicted.sort()).toEqual([`${superseded}.index`, `${unknownOld}.index`, path.basename(abandoned)].sort());
    expect(readdirSync(dir).sort()).toEqual([`${index.vintageId}.index`, `${unknownRecent}.index`].sort());
  });

  it('refuses a vintage id that is not a uuid as a file name', () => {
    expect(() => cache.pathOf('../../etc/passwd')).toThrow(/not a vintage id/);
  });
});
