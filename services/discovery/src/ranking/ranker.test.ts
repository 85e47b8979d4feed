// Past the memory budget the ranker sheds the least recently used columns of indexes read from a
// local file, across vintages, before IndexMemory drops any vintage whole; a shed column is read
// again when a ranking needs it, and the ranking is the same.
import { compileSpec, type CanonicalSpec } from '@landscreen/buybox-spec';
import { afterAll, describe, expect, it } from 'vitest';
import { IndexMemory } from '../memory/index-memory.js';
import { vintageIndexBytes } from '../memory/index-sizes.js';
import { indexFiles } from './index-file.test-helper.js';
import { rank, rankSpecOf } from './rank.js';
import { Ranker } from './ranker.js';
import { VintageIndexBuilder, type VintageIndex } from './vintage-index.js';

const files = indexFiles('ranker');
afterAll(files.remove);

const ROWS = 2_000;
const FIELDS = ['a', 'b', 'c', 'd'];
/** A plain float64 column: 8 bytes a row (numbers coded never: maxCodes 0). */
const COLUMN_BYTES = ROWS * 8;

function market(vintageId: string): VintageIndex {
  const builder = new VintageIndexBuilder(vintageId, { maxCodes: 0 });
  for (let row = 0; row < ROWS; row++) builder.add(`k${row}`, Object.fromEntries(FIELDS.map((field, at) => [field, ((row * (at + 3)) % 97) + 0.5])));
  return builder.build();
}

const specOn = (...fields: string[]) =>
  rankSpecOf(
    compileSpec({
      markets: ['m'],
      // Few rows pass (about 7 %): the rankings' own bytes stay small beside a column.
      must: [{ field: fields[0]!, op: 'gt', value: 90, unknown: 'exclude' }],
      preferred: fields.map((field) => ({ field, op: 'lt', value: 50, weight: 1 })),
      verdict_cutoffs: { pursue: 60, monitor: 30 },
    } as unknown as CanonicalSpec),
  );

describe('Ranker within the memory budget', () => {
  it('sheds least recently used columns, across vintages, before it drops a vintage', async () => {
    const built = { v1: market('00000000-0000-4000-8000-000000000001'), v2: market('00000000-0000-4000-8000-000000000002') };
    const lazy = { v1: await files.lazyCopy(built.v1), v2: await files.lazyCopy(built.v2) };
    const keysOnly = vintageIndexBytes(lazy.v1);
    // Both vintages' keys, three columns and the few rankings' rows fit; a fourth column does not.
    const memory = new IndexMemory(2 * keysOnly + 3 * COLUMN_BYTES + (COLUMN_BYTES * 3) / 4);
    const dropped: string[] = [];
    memory.onDrop((vintageId) => dropped.push(vintageId));
    const ranker = new Ranker(async (vintageId) => (vintageId === built.v1.vintageId ? lazy.v1 : lazy.v2), memory);
    const v1 = await ranker.index(built.v1.vintageId, 'm1');
    const v2 = await ranker.index(built.v2.vintageId, 'm2');
    expect(memory.total()).toBe(2 * keysOnly);

    const rankBoth = async (index: VintageIndex, whole: VintageIndex, hash: string, fields: string[]) => {
      const ranking = await ranker.ranking(hash, index, specOn(...fields));
      const expected = rank(whole, specOn(...fields));
      expect(Buffer.from(ranking.scores.buffer).equals(Buffer.from(expected.scores.buffer))).toBe(true);
      expect([...ranking.rows]).toEqual([...expected.rows]);
    };
    await rankBoth(v1, built.v1, 'q1', ['a', 'b']);
    expect(v1.resident.residentFields()).toEqual(['a', 'b']);
    await rankBoth(v2, built.v2, 'q2', ['c']);
    expect(v2.resident.residentFields()).toEqual(['c']);
    // A fourth column: v1's a, used longest ago, is shed; no vintage is dropped.
    await rankBoth(v2, built.v2, 'q3', ['d']);
    expect(v1.resident.residentFields()).toEqual(['b']);
    expect(v2.resident.residentFields()).toEqual(['c', 'd']);
    expect(dropped).toEqual([]);
    expect(memory.holds(built.v1.vintageId) && memory.holds(built.v2.vintageId)).toBe(true);
    // Read again when needed (q4 is a new query: no cached ranking), and the same ranking; b
    // (used in q1) is now the least recently used.
    await rankBoth(v1, built.v1, 'q4', ['a']);
    expect(v1.resident.residentFields()).toEqual(['a']);
    expect(v2.resident.residentFields()).toEqual(['c', 'd']);
    expect(memory.total()).toBeLessThanOrEqual(memory.budgetBytes);
    expect(dropped).toEqual([]);
  });

  it('drops a vintage whole when shedding every column is not enough, and a fully loaded index sheds nothing', async () => {
    const built = market('00000000-0000-4000-8000-000000000003');
    const lazy = await files.lazyCopy(built);
    const keysOnly = vintageIndexBytes(lazy);
    const memory = new IndexMemory(keysOnly + vintageIndexBytes(built) / 2);
    const dropped: string[] = [];
    memory.onDrop((vintageId) => dropped.push(vintageId));
    const other = '00000000-0000-4000-8000-000000000004';
    const ranker = new Ranker(async (vintageId) => (vintageId === other ? built : lazy), memory);
    const index = await ranker.index(built.vintageId, 'm1');
    await ranker.ranking('q1', index, specOn('a', 'b'));
    expect(index.resident.residentFields()).toEqual(['a', 'b']);
    // The fully loaded one (another vintage, from the database) has nothing to shed: the lazy
    // one's columns go first, then the lazy vintage itself, least recently used.
    const whole = await ranker.index(other, 'm2');
    expect(index.resident.residentFields()).toEqual([]);
    expect(dropped).toEqual([built.vintageId]);
    expect(whole.resident.residentFields()).toEqual(FIELDS);
  });

  it('holds the copy reopened from the local file instead of the index read whole, columns not resident', async () => {
    const built = market('00000000-0000-4000-8000-000000000005');
    const lazy = await files.lazyCopy(built);
    const memory = new IndexMemory(10 * vintageIndexBytes(built));
    let reopen: ((index: VintageIndex) => void) | undefined;
    const ranker = new Ranker(async (_vintageId, reopened) => {
      reopen = reopened;
      return built;
    }, memory);
    const first = await ranker.index(built.vintageId, 'm1');
    expect(first).toBe(built);
    const ranking = await ranker.ranking('q1', first, specOn('a'));
    const rankingsBytes = memory.total() - vintageIndexBytes(built);
    reopen!(lazy);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await ranker.index(built.vintageId, 'm1')).toBe(lazy);
    expect(memory.total()).toBe(vintageIndexBytes(lazy) + rankingsBytes);
    expect(vintageIndexBytes(lazy)).toBeLessThan(vintageIndexBytes(built));
    // The cached ranking is still the answer; a new spec reads its columns from the file.
    expect(await ranker.ranking('q1', lazy, specOn('a'))).toBe(ranking);
    await ranker.ranking('q2', lazy, specOn('b', 'c'));
    expect(lazy.resident.residentFields()).toEqual(['b', 'c']);
  });
});
