// Random markets and rules for the ranking's property tests (not used by the service).
import fc from 'fast-check';
import { compilePredicate, type CanonicalSpec } from '@landscreen/buybox-spec';
import { VintageIndexBuilder, type VintageIndex } from './vintage-index.js';

/** Fields of every kind a column can be: numbers, coded strings and booleans, mixed, absent. */
export const FIELDS = ['n', 'c', 'b', 'm', 's', 'absent'] as const;

const number = fc.oneof(fc.integer({ min: -5, max: 30 }), fc.constantFrom(0, -0, 2.5, 1e-9, -1e9), fc.double({ min: -1e6, max: 1e6, noNaN: true }));
const text = fc.constantFrom('industrial', 'Industrial', 'agri', 'AGRI', '', '10', '2.5', 'z');
const scalar = fc.oneof(number, text, fc.boolean(), fc.constant(null));

/** One parcel's facts: `m` takes values of any kind, so its column is mixed (or happens not to be). */
const facts = fc.record({
  n: fc.option(number, { nil: null }),
  c: fc.option(text, { nil: null }),
  b: fc.option(fc.boolean(), { nil: null }),
  m: scalar,
  s: fc.option(fc.constantFrom('5', '12.5', 'x', '-3'), { nil: null }),
});

/**
 * A market of up to `max` parcels with distinct keys. Its number columns are coded or plain as
 * `maxCodes` allows: none, a few (so that some columns are coded and some not), or the default.
 */
export const market = (max: number): fc.Arbitrary<VintageIndex> =>
  fc.tuple(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 5 }), { minLength: 0, maxLength: max }), fc.constantFrom(0, 3, undefined)).chain(([keys, maxCodes]) =>
    fc.array(facts, { minLength: keys.length, maxLength: keys.length }).map((rows) => {
      const builder = new VintageIndexBuilder('v', { maxCodes });
      keys.forEach((key, row) => builder.add(key, rows[row]!));
      return builder.build();
    }),
  );

const orderable = fc.oneof(number, text);

/** A rule's op and a value of the shape the op takes (as the canonical spec holds them). */
export const opAndValue: fc.Arbitrary<{ op: string; value: unknown }> = fc
  .oneof(
    fc.record({ op: fc.constantFrom('lt', 'lte', 'gt', 'gte'), value: orderable as fc.Arbitrary<unknown> }),
    fc.record({ op: fc.constantFrom('eq', 'ne', 'contains'), value: scalar as fc.Arbitrary<unknown> }),
    fc.record({ op: fc.constantFrom('in', 'not_in'), value: fc.array(scalar, { minLength: 1, maxLength: 4 }) as fc.Arbitrary<unknown> }),
    fc.record({ op: fc.constant('exists'), value: fc.boolean() as fc.Arbitrary<unknown> }),
    fc.record({ op: fc.constant('between'), value: fc.tuple(number, number).map(([a, b]) => [Math.min(a, b), Math.max(a, b)]) as fc.Arbitrary<unknown> }),
  )
  .filter(({ op, value }) => {
    try {
      compilePredicate(op, value);
      return true;
    } catch {
      return false;
    }
  });

export const rule = fc.record({ field: fc.constantFrom(...FIELDS), rule: opAndValue }).map(({ field, rule: { op, value } }) => ({ field, op, value }));

export const mustRule = fc.record({ base: rule, unknown: fc.constantFrom('exclude' as const, 'review' as const) }).map(({ base, unknown }) => ({ ...base, unknown }));

export const weight = fc.oneof(fc.integer({ min: -3, max: 10 }), fc.constantFrom(0.1, 0.2, 2.5, -0.7, 1 / 3));

export const preferredRule = fc.record({ base: rule, weight }).map(({ base, weight: w }) => ({ ...base, weight: w }));

/**
 * A graded preferred rule (D41): lt/lte/gt/gte on a number, zero_at beyond the value in the
 * rule's direction (as normaliseDraft accepts it).
 */
export const gradedRule = fc
  .record({
    field: fc.constantFrom(...FIELDS),
    op: fc.constantFrom('lt', 'lte', 'gt', 'gte'),
    value: fc.oneof(fc.integer({ min: -5, max: 30 }), fc.double({ min: -1e6, max: 1e6, noNaN: true })),
    span: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.double({ min: 1e-6, max: 1e6, noNaN: true })),
    weight,
  })
  .map(({ field, op, value, span, weight: w }) => {
    const base = value === 0 ? 0 : value;
    const zeroAt = op === 'lt' || op === 'lte' ? base + span : base - span;
    return { field, op, value: base, weight: w, grade: { zero_at: zeroAt === 0 ? 0 : zeroAt } };
  })
  .filter(({ value, grade }) => grade.zero_at !== value);

/** A preferred rule, graded or not. */
export const anyPreferredRule: fc.Arbitrary<{ field: string; op: string; value: unknown; weight: number; grade?: { zero_at: number } }> = fc.oneof(
  preferredRule,
  gradedRule,
);

const cutoffs = fc.tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 })).map(([a, b]) => ({ pursue: Math.max(a, b), monitor: Math.min(a, b) }));

/** A canonical spec of must and preferred rules over FIELDS (as far as ranking reads one). */
export const canonicalSpec = (preferredCount: { minLength: number; maxLength: number }, preferred: fc.Arbitrary<unknown> = preferredRule): fc.Arbitrary<CanonicalSpec> =>
  fc
    .record({
      must: fc.array(mustRule, { maxLength: 5 }),
      preferred: fc.array(preferred, preferredCount),
      verdict_cutoffs: cutoffs,
    })
    .map((parts) => ({ markets: ['m'], ...parts }) as unknown as CanonicalSpec);
