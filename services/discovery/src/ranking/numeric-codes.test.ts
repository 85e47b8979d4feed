import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGrade, compilePredicate } from '@landscreen/buybox-spec';
import { valueAt, type Column } from './columns.js';
import { concatChunks, type StoredColumns } from './column-store.js';
import { addGraded } from './graded-score.js';
import { codeNumbers } from './numeric-codes.js';
import { ruleKernel } from './rule-kernels.js';
import { gradedRule, opAndValue } from './test-arbitraries.js';

/** Numbers with repeats, NaN as "no value", and now and then −0 (which keeps a column plain). */
const numberValues = fc.array(
  fc.oneof(fc.integer({ min: -5, max: 30 }), fc.constantFrom(0, 2.5, 1e-9, -1e9, 0.1, Number.NaN), fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constant(-0)),
  { minLength: 0, maxLength: 60 },
);
const plainOf = (values: number[]): Column => ({ kind: 'number', values: Float64Array.from(values) });
const valueOf = (column: Column, row: number) => valueAt(column, row);

describe('number columns coded by their distinct values', () => {
  it('read back every value exactly (−0 and missing included), slots in the values\' order', () => {
    fc.assert(
      fc.property(numberValues, fc.integer({ min: 1, max: 70 }), (values, maxCodes) => {
        const column = codeNumbers(Float64Array.from(values), { maxCodes });
        const distinct = new Set(values.filter((value) => value === value));
        const coded = distinct.size <= maxCodes && !values.some((value) => Object.is(value, -0));
        expect(column.kind).toBe(coded ? 'coded' : 'number');
        values.forEach((value, row) => expect(Object.is(valueAt(column, row), value === value ? value : null)).toBe(true));
        if (column.kind === 'coded') {
          expect(column.slots.BYTES_PER_ELEMENT).toBe(1);
          for (let a = 0; a < values.length; a++)
            for (let b = 0; b < values.length; b++)
              if (values[a] === values[a] && values[b] === values[b]) expect(Math.sign(column.slots[a]! - column.slots[b]!)).toBe(Math.sign(values[a]! - values[b]!));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('take slots as wide as the dictionary needs, two bytes at most', () => {
    const wide = (distinct: number) => codeNumbers(Float64Array.from({ length: distinct }, (_, i) => i * 0.5), { maxCodes: 100_000 });
    expect((wide(255) as { slots: Uint8Array }).slots).toBeInstanceOf(Uint8Array);
    expect((wide(256) as { slots: Uint16Array }).slots).toBeInstanceOf(Uint16Array);
    expect((wide(65_535) as { slots: Uint16Array }).slots).toBeInstanceOf(Uint16Array);
    expect(wide(65_536).kind).toBe('number');
  });

  it('by default code a column of at most 255 distinct values, or a quarter of its rows', () => {
    const column = (rows: number, distinct: number) => codeNumbers(Float64Array.from({ length: rows }, (_, i) => (i % distinct) + 0.25)).kind;
    expect(column(1_000, 255)).toBe('coded');
    expect(column(1_000, 256)).toBe('number');
    expect(column(4_000, 1_000)).toBe('coded');
    expect(column(4_000, 1_001)).toBe('number');
  });

  it('give every rule kernel the outcomes of plain evaluation, as the plain column does', () => {
    fc.assert(
      fc.property(numberValues, opAndValue, fc.boolean(), (values, { op, value }, unknownKeeps) => {
        const test = compilePredicate(op, value);
        const rows = Uint32Array.from(values.keys());
        const plain = plainOf(values);
        const coded = codeNumbers(Float64Array.from(values));
        for (const column of [plain, coded]) {
          const outcome = (row: number) => test(valueOf(plain, row));
          const output = new Uint32Array(rows.length);
          const review = new Uint8Array(rows.length);
          const kept = ruleKernel(column, { test, op, value }).keep(rows, rows.length, output, review, unknownKeeps);
          expect([...output.subarray(0, kept)]).toEqual([...rows].filter((row) => outcome(row) === true || (outcome(row) === undefined && unknownKeeps)));
          for (const row of rows) expect(review[row]).toBe(unknownKeeps && outcome(row) === undefined ? 1 : 0);
          const passed = new Uint32Array(rows.length);
          ruleKernel(column, { test, op, value }).mark(rows, rows.length, passed, 3);
          rows.forEach((row) => expect(passed[row]).toBe(test(valueOf(plain, row)) === true ? 8 : 0));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('give graded rules the sums the plain column gives, bit for bit', () => {
    fc.assert(
      fc.property(numberValues, gradedRule, (values, rule) => {
        const graded = compileGrade(rule.value, rule.grade, rule.weight);
        const rows = Uint32Array.from(values.keys());
        const sumsOf = (column: Column) => {
          const sums = new Float64Array(rows.length);
          addGraded(column, { ...rule, graded }, rows, rows.length, sums);
          return [...sums];
        };
        const plain = sumsOf(plainOf(values));
        sumsOf(codeNumbers(Float64Array.from(values))).forEach((sum, at) => expect(Object.is(sum, plain[at])).toBe(true));
      }),
      { numRuns: 1000 },
    );
  });

  it('join chunks into the column one build of all the rows makes', () => {
    fc.assert(
      fc.property(fc.array(numberValues, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 70 }), (parts, maxCodes) => {
        const chunks: StoredColumns[] = parts.map((values, c) => ({
          keys: values.map((_, row) => `${c}-${row}`),
          columns: new Map([['n', codeNumbers(Float64Array.from(values), { maxCodes })]]),
        }));
        const joined = concatChunks(chunks).columns.get('n')!;
        const all = parts.flat();
        const whole = codeNumbers(Float64Array.from(all), { maxCodes: Math.max(maxCodes, 0xffff) });
        // Chunks coded on their own join coded when all of them were (and together they fit).
        expect(joined.kind).toBe(parts.every((values) => codeNumbers(Float64Array.from(values), { maxCodes }).kind === 'coded') ? whole.kind : 'number');
        all.forEach((value, row) => expect(Object.is(valueAt(joined, row), value === value ? value : null)).toBe(true));
        if (joined.kind === 'coded' && whole.kind === 'coded') {
          expect([...joined.slots]).toEqual([...whole.slots]);
          expect(joined.dictionary).toEqual(whole.dictionary);
        }
      }),
      { numRuns: 500 },
    );
  });
});
