// An index read from a local file holds its keys; a ranking reads just the columns its spec uses,
// and ranks exactly as the index loaded whole; a page's rows read the other facts row by row.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { compileSpec } from '@landscreen/buybox-spec';
import { valueAt } from './columns.js';
import { indexFiles } from './index-file.test-helper.js';
import { rank, rankSpecOf, specFields, type Ranking } from './rank.js';
import { anyPreferredRule, canonicalSpec, market } from './test-arbitraries.js';

const files = indexFiles('lazy-columns');
afterAll(files.remove);

const bytes = (array: ArrayBufferView) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
function expectSameRanking(actual: Ranking, expected: Ranking): void {
  expect(bytes(actual.rows).equals(bytes(expected.rows))).toBe(true);
  expect(bytes(actual.scores).equals(bytes(expected.scores))).toBe(true);
  expect(bytes(actual.review).equals(bytes(expected.review))).toBe(true);
  expect(actual.eligibleTotal).toBe(expected.eligibleTotal);
  expect(actual.byVerdict).toEqual(expected.byVerdict);
}

describe('an index whose columns are read when a ranking needs them', () => {
  it('ranks as the index loaded whole, with only the columns of the spec resident, for any market and spec', async () => {
    await fc.assert(
      fc.asyncProperty(market(60), fc.array(canonicalSpec({ minLength: 0, maxLength: 6 }, anyPreferredRule), { minLength: 1, maxLength: 3 }), async (built, canonicals) => {
        const whole = await files.lazyCopy(built);
        await whole.columnsFor(whole.fields());
        const lazy = await files.lazyCopy(built);
        expect(lazy.resident.residentFields()).toEqual([]);
        const used = new Set<string>();
        for (const canonical of canonicals) {
          const spec = rankSpecOf(compileSpec(canonical));
          const columns = await lazy.columnsFor(specFields(spec));
          expectSameRanking(rank(lazy, spec, columns), rank(whole, spec));
          for (const field of specFields(spec)) used.add(field);
          // What is resident is what the specs so far read (that the market has), nothing more.
          expect(lazy.resident.residentFields()).toEqual(lazy.fields().filter((field) => used.has(field)));
        }
      }),
      { numRuns: 150 },
    );
  });

  it("reads a page's rows as the whole index holds them, without making their columns resident", async () => {
    await fc.assert(
      fc.asyncProperty(market(60), fc.array(fc.nat(), { maxLength: 12 }), async (built, picks) => {
        const whole = await files.lazyCopy(built);
        await whole.columnsFor(whole.fields());
        const lazy = await files.lazyCopy(built);
        // One column resident already: its values come from it, the others' from the row records.
        await lazy.columnsFor(['n']);
        const rows = built.size === 0 ? [] : picks.map((pick) => pick % built.size);
        const values = await lazy.rowValues(rows);
        for (const row of rows) for (const field of [...whole.fields(), 'absent']) expect(Object.is(values(field, row), valueAt(whole.column(field), row)) || (values(field, row) === null && valueAt(whole.column(field), row) === null)).toBe(true);
        // Mixed columns have no row records: those are made resident; number and coded ones are not.
        const mixed = whole.fields().filter((field) => whole.column(field)!.kind === 'mixed');
        const expected = rows.length === 0 ? ['n'] : ['n', ...mixed];
        expect(lazy.resident.residentFields().sort()).toEqual(lazy.fields().filter((field) => expected.includes(field)).sort());
      }),
      { numRuns: 150 },
    );
  });
});
