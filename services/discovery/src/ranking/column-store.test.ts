import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '@landscreen/db';
import { toParcelRecord } from '@landscreen/parcel-io';
import { createTestPGlite, createTestPostgres } from '@landscreen/testing';
import { importVintage } from '../operations/import-vintage.js';
import { valueAt } from './columns.js';
import { loadVintageIndex } from './column-store.js';
import type { VintageIndex } from './vintage-index.js';
import { discoveryDb } from '../schema.js';

// Keys out of order, with case and prefixes that a locale-aware sort would order differently.
const KEYS = ['b', 'a', 'B', 'aa', 'a-1', 'Z', 'é'];

describe.each([
  ['pglite', createTestPGlite],
  ['postgres', createTestPostgres],
] as const)('a vintage\'s stored ranking index on %s', (_mode, open) => {
  let database: DatabaseHandle;
  let vintageId: string;

  beforeAll(async () => {
    database = await open();
    const records = KEYS.map((key, index) =>
      toParcelRecord({ line: index + 1, geometry: null, properties: { parcel_key: key, acres: index * 10, zoning: index % 2 ? 'ag' : 'industrial', slope_degrees: index, note: `n${index}` } }, 'store-tx'),
    );
    vintageId = (await importVintage(discoveryDb(database.db), { market: 'store-tx', source: 'test', records })).vintageId;
  });
  afterAll(() => database?.close());

  const expectIndex = (index: VintageIndex) => {
    expect(Array.from({ length: index.keys.length }, (_, row) => index.keys.at(row))).toEqual(KEYS);
    // D15: code-unit order, as PostgreSQL's "C" collation.
    expect([...index.rowsByKey].map((row) => KEYS[row])).toEqual([...KEYS].sort());
    for (const [rank, row] of index.rowsByKey.entries()) expect(index.keyRank[row]).toBe(rank);
    for (const [row, key] of KEYS.entries()) expect(index.rowOfKey(key)).toBe(row);
    expect(index.rowOfKey('missing')).toBeUndefined();
    // A number column of few distinct values is coded, its dictionary in ascending order.
    expect(index.column('acres')).toMatchObject({ kind: 'coded', dictionary: KEYS.map((_, i) => i * 10) });
    for (const [row] of KEYS.entries()) expect(valueAt(index.column('acres'), row)).toBe(row * 10);
    expect(index.column('zoning')).toMatchObject({ kind: 'coded', dictionary: ['industrial', 'ag'] });
    expect(index.column('note')).toMatchObject({ kind: 'coded', dictionary: KEYS.map((_, i) => `n${i}`) });
  };

  it('loads back the keys, their order and every column as the import built them', async () => {
    const kinds = await sql<{ kind: string }>`select kind from discovery.vintage_columns where vintage_id = ${vintageId} and field like '#%' order by kind`.execute(database.db);
    expect(kinds.rows.map((row) => row.kind)).toEqual(['key_order', 'keys']);
    expectIndex(await loadVintageIndex(discoveryDb(database.db), vintageId));
  });

  it('reads columns stored in the earlier forms (float64 numbers, int32 codes) and codes them as a build does', async () => {
    const codes = Buffer.from(Int32Array.from(KEYS, (_, i) => (i % 2 ? 1 : 0)).buffer);
    const numbers = Buffer.from(Float64Array.from(KEYS, (_, i) => i * 10).buffer);
    await sql`update discovery.vintage_columns set kind = 'coded', data = ${codes} where vintage_id = ${vintageId} and field = 'zoning'`.execute(database.db);
    await sql`update discovery.vintage_columns set kind = 'number', data = ${numbers}, dictionary = null where vintage_id = ${vintageId} and field = 'acres'`.execute(database.db);
    expectIndex(await loadVintageIndex(discoveryDb(database.db), vintageId));
  });

  it('reads back a large string dictionary and many keys exactly (held packed as UTF-8)', async () => {
    const names = Array.from({ length: 600 }, (_, i) => `owner ${i} ${'é'.repeat(i % 3)}`);
    const records = names.map((name, i) => toParcelRecord({ line: i + 1, geometry: null, properties: { parcel_key: `k${i}`, owner_note: name } }, 'store-big'));
    const id = (await importVintage(discoveryDb(database.db), { market: 'store-big', source: 'test', records })).vintageId;
    const index = await loadVintageIndex(discoveryDb(database.db), id);
    names.forEach((name, row) => {
      expect(index.keys.at(row)).toBe(`k${row}`);
      expect(valueAt(index.column('owner_note'), row)).toBe(name);
    });
    expect(index.rowOfKey('k599')).toBe(599);
  });

  it('orders the keys itself when the stored order is not one (a damaged row)', async () => {
    const reversed = Buffer.from(Uint32Array.from(KEYS.keys()).reverse().buffer);
    await sql`update discovery.vintage_columns set data = ${reversed} where vintage_id = ${vintageId} and kind = 'key_order'`.execute(database.db);
    expectIndex(await loadVintageIndex(discoveryDb(database.db), vintageId));
  });

  it('orders the keys itself for a vintage stored without its key order', async () => {
    await sql`delete from discovery.vintage_columns where vintage_id = ${vintageId} and kind = 'key_order'`.execute(database.db);
    expectIndex(await loadVintageIndex(discoveryDb(database.db), vintageId));
  });
});
