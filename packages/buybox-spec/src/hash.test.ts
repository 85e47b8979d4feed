import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, queryHash, specHash } from './hash.js';
import { normaliseDraft } from './normalise.js';
import { FIELD_OPTIONS } from './testing/fields.js';
import type { CanonicalSpec, Scalar } from './types.js';

function canonical(draft: unknown): CanonicalSpec {
  const result = normaliseDraft(draft, FIELD_OPTIONS);
  if (!('spec' in result)) throw new Error(JSON.stringify(result.issues));
  return result.spec;
}

const hashOf = (draft: unknown) => specHash(canonical(draft));

describe('canonicalJson', () => {
  it('sorts keys at every depth and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('writes numbers in shortest form, -0 as 0', () => {
    expect(canonicalJson([1.0, 0.1, -0, 1e21, 100, 2.5e-7])).toBe('[1,0.1,0,1e+21,100,2.5e-7]');
  });

  it('follows JSON for undefined, non-finite numbers and toJSON', () => {
    expect(canonicalJson({ a: undefined, b: [undefined, Number.NaN] })).toBe('{"b":[null,null]}');
    expect(canonicalJson(new Date(0))).toBe('"1970-01-01T00:00:00.000Z"');
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
    expect(() => canonicalJson(1n)).toThrow(TypeError);
  });

  it('escapes strings as JSON does and orders keys by code unit', () => {
    expect(canonicalJson({ é: 1, Z: 2, a: '"\n' })).toBe('{"Z":2,"a":"\\"\\n","é":1}');
  });
});

describe('specHash and queryHash', () => {
  const draft = {
    markets: ['travis-tx'],
    must: [
      { field: 'acres', op: '>=', value: 50 },
      { field: 'within_floodplain_polygon', op: 'eq', value: false, unknown: 'review' },
      { field: 'zoning', op: 'in', value: ['industrial', 'commercial'] },
    ],
    preferred: [{ field: 'nearest_substation_distance_m', op: '<=', value: 3000, weight: 3 }],
    verdict_cutoffs: { pursue: 70, monitor: 40 },
  };

  it('is a 64-character lowercase hex SHA-256 of the canonical JSON', () => {
    const spec = canonical(draft);
    expect(specHash(spec)).toMatch(/^[0-9a-f]{64}$/);
    expect(specHash(spec)).toBe(specHash(JSON.parse(canonicalJson(spec))));
  });

  it('equivalent specs written differently hash alike', () => {
    const rewritten = {
      verdict_cutoffs: { monitor: 40.0, pursue: 70 },
      preferred: [{ weight: 3, value: 3000, op: 'LTE', field: 'nearest_substation_distance_m' }],
      must: [
        { value: ['commercial', 'industrial', 'commercial'], op: ' IN ', field: 'zoning', unknown: null },
        { field: 'within_floodplain_polygon', op: '==', value: false, unknown: 'review' },
        { field: 'acres', op: 'gte', value: 50.0, unknown: 'exclude' },
      ],
      markets: [' travis-tx'],
    };
    expect(hashOf(rewritten)).toBe(hashOf(draft));
  });

  it('different specs hash differently', () => {
    const base = hashOf(draft);
    const variants = [
      { ...draft, markets: ['hays-tx'] },
      { ...draft, verdict_cutoffs: { pursue: 71, monitor: 40 } },
      { ...draft, must: draft.must.slice(1) },
      { ...draft, must: [{ ...draft.must[0], value: 51 }, ...draft.must.slice(1)] },
      { ...draft, must: [{ ...draft.must[0], unknown: 'review' }, ...draft.must.slice(1)] },
      { ...draft, must: [{ ...draft.must[0], op: '>' }, ...draft.must.slice(1)] },
      { ...draft, preferred: [{ ...draft.preferred[0], weight: 2 }] },
      { ...draft, preferred: [] },
      // The same rule as a preference is a different spec.
      { ...draft, must: draft.must.slice(1), preferred: [...draft.preferred, { ...draft.must[0], weight: 1 }] },
    ];
    const hashes = variants.map(hashOf);
    expect(new Set([base, ...hashes]).size).toBe(variants.length + 1);
  });

  it('query_hash is stable for a spec and vintage and changes with the vintage or market', () => {
    const spec = canonical(draft);
    const market = '0b9a3b4e-1f0c-4c3e-9a53-6a1f1d1a2b3c';
    const v1 = '6f1c2a9e-8c1b-4a7e-9d1e-2b3c4d5e6f70';
    const v2 = '6f1c2a9e-8c1b-4a7e-9d1e-2b3c4d5e6f71';
    const first = queryHash(spec, market, v1);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(queryHash(canonical(structuredClone(draft)), market, v1)).toBe(first);
    expect(queryHash(spec, market, v2)).not.toBe(first);
    expect(queryHash(spec, v2, v1)).not.toBe(first);
    expect(first).not.toBe(specHash(spec));
  });
});

// ---- property: equivalent rewritings never change spec_hash; changing one value always does ----

const FIELDS = ['acres', 'zoning', 'slope_degrees', 'within_floodplain_polygon', 'nearest_substation_distance_m', 'owner_name'];

const number = fc.oneof(fc.integer({ min: -100, max: 100 }), fc.double({ min: -1e6, max: 1e6, noNaN: true }));
const text = fc.constantFrom('a', 'B', 'industrial', 'Light Industrial', '', 'é');
const scalar: fc.Arbitrary<Scalar> = fc.oneof(number, text, fc.boolean(), fc.constant(null));

const ruleBody = fc.oneof(
  fc.record({ op: fc.constantFrom('eq', 'ne'), value: scalar }),
  fc.record({ op: fc.constantFrom('lt', 'lte', 'gt', 'gte'), value: fc.oneof(number, text) }),
  fc.record({ op: fc.constantFrom('in', 'not_in'), value: fc.array(scalar, { minLength: 1, maxLength: 5 }) }),
  fc.record({
    op: fc.constant('between'),
    value: fc.tuple(fc.integer({ min: -50, max: 50 }), fc.integer({ min: 0, max: 50 })).map(([lo, span]) => [lo, lo + span]),
  }),
  fc.record({ op: fc.constant('exists'), value: fc.boolean() }),
  fc.record({ op: fc.constant('contains'), value: text }),
);

const mustRule = fc
  .tuple(fc.constantFrom(...FIELDS), ruleBody, fc.constantFrom<'exclude' | 'review' | null | undefined>('exclude', 'review', null, undefined))
  .map(([field, body, unknown]) => ({ field, ...body, ...(unknown === undefined ? {} : { unknown }) }));

const preferredRule = fc
  .tuple(fc.constantFrom(...FIELDS), ruleBody, fc.integer({ min: -5, max: 5 }))
  .map(([field, body, weight]) => ({ field, ...body, weight }));

const draftArb = fc.record({
  markets: fc.constantFrom(['travis-tx'], ['hays-tx']),
  must: fc.array(mustRule, { maxLength: 6 }),
  preferred: fc.array(preferredRule, { maxLength: 6 }),
  verdict_cutoffs: fc.record({ pursue: fc.integer({ min: 0, max: 100 }), monitor: fc.integer({ min: 0, max: 100 }) }),
});

type AnyRule = { field: string; op: string; value: unknown; unknown?: unknown; weight?: number };
type Gen = fc.GeneratorValue;

const SPELLINGS: Record<string, string[]> = {
  eq: ['eq', 'EQ', '=', '==', ' eq '],
  ne: ['ne', 'Ne', '!='],
  lt: ['lt', '<', ' < '],
  lte: ['lte', '<=', 'LTE'],
  gt: ['gt', '>'],
  gte: ['gte', '>=', 'GTE '],
  in: ['in', 'IN'],
  not_in: ['not_in', 'NOT_IN'],
  between: ['between', 'Between'],
  exists: ['exists', 'EXISTS'],
  contains: ['contains', 'Contains'],
};

function shuffled<T>(g: Gen, items: readonly T[]): T[] {
  return g(fc.shuffledSubarray, [...items], { minLength: items.length, maxLength: items.length });
}

/** The same object with its keys in another order. */
function reordered(g: Gen, object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(shuffled(g, Object.entries(object)));
}

/** An equivalent rewriting of a rule: another op spelling, key order, list order, default policy. */
function rewriteRule(g: Gen, rule: AnyRule): Record<string, unknown> {
  const out: Record<string, unknown> = { ...rule, op: g(fc.constantFrom, ...SPELLINGS[rule.op]) };
  if (Array.isArray(rule.value) && (rule.op === 'in' || rule.op === 'not_in')) {
    const members = shuffled(g, rule.value);
    // A repeated member is the same set.
    out.value = g(fc.boolean) ? [...members, members[0]] : members;
  }
  if (typeof rule.value === 'number' && rule.value === 0) out.value = g(fc.constantFrom, 0, -0);
  if ('weight' in rule) return reordered(g, out);
  if (rule.unknown !== 'review') {
    delete out.unknown;
    const policy = g(fc.constantFrom, 'absent', null, 'exclude');
    if (policy !== 'absent') out.unknown = policy;
  }
  return reordered(g, out);
}

function rewriteDraft(g: Gen, draft: { must: AnyRule[]; preferred: AnyRule[] } & Record<string, unknown>) {
  return reordered(g, {
    ...draft,
    markets: [g(fc.constantFrom, '', ' ', '  ') + (draft.markets as string[])[0]],
    must: shuffled(g, draft.must.map((rule) => rewriteRule(g, rule))),
    preferred: shuffled(g, draft.preferred.map((rule) => rewriteRule(g, rule))),
    verdict_cutoffs: reordered(g, draft.verdict_cutoffs as Record<string, unknown>),
  });
}

/** A value no generated rule has, of the right shape for the op. */
function freshValue(rule: AnyRule): unknown {
  switch (rule.op) {
    case 'in':
    case 'not_in':
      return [...(rule.value as unknown[]), 'changed-member'];
    case 'between':
      return [(rule.value as number[])[0], 1_000_001];
    default:
      return 1_000_001;
  }
}

describe('spec_hash property', () => {
  it('shuffling rules, aliasing ops, reordering keys and permuting in-lists never change it', () => {
    fc.assert(
      fc.property(draftArb, fc.gen(), (draft, g) => {
        const d = draft as unknown as { must: AnyRule[]; preferred: AnyRule[] } & Record<string, unknown>;
        expect(hashOf(rewriteDraft(g, d))).toBe(hashOf(d));
      }),
      { numRuns: 200 },
    );
  });

  it('changing the value of any one rule always changes it', () => {
    fc.assert(
      fc.property(
        draftArb,
        fc.nat(),
        (draft, pick) => {
          const d = draft as unknown as { must: AnyRule[]; preferred: AnyRule[] } & Record<string, unknown>;
          // `exists` has only two values, so flipping one may recreate a rule the set already has.
          const all = [
            ...d.must.flatMap((rule, i) => (rule.op === 'exists' ? [] : [['must', i] as const])),
            ...d.preferred.flatMap((rule, i) => (rule.op === 'exists' ? [] : [['preferred', i] as const])),
          ];
          fc.pre(all.length > 0);
          const [list, index] = all[pick % all.length];
          const rules = d[list].map((rule, i) => (i === index ? { ...rule, value: freshValue(rule) } : rule));
          expect(hashOf({ ...d, [list]: rules })).not.toBe(hashOf(d));
        },
      ),
      { numRuns: 300 },
    );
  });
});
