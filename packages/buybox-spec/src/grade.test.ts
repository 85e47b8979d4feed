import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSpec } from './evaluate.js';
import { gradedShare } from './grade.js';
import { canonicalJson, queryHash, specHash } from './hash.js';
import { normaliseDraft } from './normalise.js';
import { parseBuyBoxText } from './parse.js';
import { FIELD_OPTIONS } from './testing/fields.js';
import type { CanonicalSpec } from './types.js';

const CUTOFFS = { pursue: 70, monitor: 40 };
const MARKET = '11111111-1111-4111-8111-111111111111';
const VINTAGE = '22222222-2222-4222-8222-222222222222';

function canonical(draft: unknown): CanonicalSpec {
  const result = normaliseDraft(draft, FIELD_OPTIONS);
  if (!('spec' in result)) throw new Error(JSON.stringify(result.issues));
  return result.spec;
}

function issuesOf(draft: unknown) {
  const result = normaliseDraft(draft, FIELD_OPTIONS);
  return 'issues' in result ? result.issues.map((issue) => `${issue.loc.join('.')}:${issue.type}`) : [];
}

const near = (grade?: unknown) => ({
  markets: ['travis-tx'],
  preferred: [{ field: 'nearest_substation_distance_m', op: 'lte', value: 1500, weight: 3, ...(grade === undefined ? {} : { grade }) }],
  verdict_cutoffs: CUTOFFS,
});

describe('ungraded specs hash exactly as before grades (D41)', () => {
  // Canonical JSON and hashes computed on main before D41 existed.
  it('keeps the canonical JSON, spec_hash and query_hash of an ungraded spec byte for byte', () => {
    const spec = canonical({
      markets: ['travis-tx'],
      must: [
        { field: 'acres', op: '>=', value: 50 },
        { field: 'within_floodplain_polygon', op: 'eq', value: false, unknown: 'review' },
        { field: 'zoning', op: 'in', value: ['industrial', 'commercial'] },
      ],
      preferred: [
        { field: 'nearest_substation_distance_m', op: '<=', value: 3000, weight: 3 },
        { field: 'slope_degrees', op: 'lt', value: 5, weight: -1.5, grade: null },
      ],
      verdict_cutoffs: CUTOFFS,
    });
    expect(canonicalJson(spec)).toBe(
      '{"markets":["travis-tx"],"must":[{"field":"acres","op":"gte","unknown":"exclude","value":50},' +
        '{"field":"within_floodplain_polygon","op":"eq","unknown":"review","value":false},' +
        '{"field":"zoning","op":"in","unknown":"exclude","value":["commercial","industrial"]}],' +
        '"preferred":[{"field":"nearest_substation_distance_m","op":"lte","value":3000,"weight":3},' +
        '{"field":"slope_degrees","op":"lt","value":5,"weight":-1.5}],"verdict_cutoffs":{"monitor":40,"pursue":70}}',
    );
    expect(specHash(spec)).toBe('80bea6325b537036b865fcf215af89d05ff2603f450a89c5c62f39b855f00946');
    expect(queryHash(spec, MARKET, VINTAGE)).toBe('dac106173fea56e02965979dd86df19304e1ef3fe572e5462713f4ed0ffde2c2');
  });

  it('a grade is part of the canonical spec and of both hashes', () => {
    const plain = canonical(near());
    const graded = canonical(near({ zero_at: 8000 }));
    const further = canonical(near({ zero_at: 9000 }));
    expect(graded.preferred[0]).toEqual({ field: 'nearest_substation_distance_m', op: 'lte', value: 1500, weight: 3, grade: { zero_at: 8000 } });
    expect(plain.preferred[0]).not.toHaveProperty('grade');
    expect(new Set([specHash(plain), specHash(graded), specHash(further)]).size).toBe(3);
    expect(queryHash(plain, MARKET, VINTAGE)).not.toBe(queryHash(graded, MARKET, VINTAGE));
    // Written differently, the same grade: the same spec.
    expect(specHash(canonical(near({ zero_at: '8000.0' })))).toBe(specHash(graded));
  });
});

describe('validation of a grade (D41, D1)', () => {
  it('accepts a grade on lt/lte/gt/gte with zero_at beyond the value', () => {
    for (const [op, zeroAt] of [['lt', 2000], ['lte', 1500.5], ['gt', 1000], ['gte', -5]] as const) {
      expect(issuesOf({ ...near(), preferred: [{ field: 'acres', op, value: 1500, weight: 1, grade: { zero_at: zeroAt } }] }).length > 0).toBe(
        (op === 'lt' || op === 'lte') !== zeroAt > 1500,
      );
    }
  });

  it('refuses zero_at on the near side of the value, on the rule\'s loc', () => {
    expect(issuesOf(near({ zero_at: 1500 }))).toEqual(['preferred.0.grade.zero_at:greater_than']);
    expect(issuesOf(near({ zero_at: 100 }))).toEqual(['preferred.0.grade.zero_at:greater_than']);
    const gte = { ...near(), preferred: [{ field: 'acres', op: '>=', value: 50, weight: 1, grade: { zero_at: 60 } }] };
    expect(issuesOf(gte)).toEqual(['preferred.0.grade.zero_at:less_than']);
  });

  it('refuses a grade on another op, on a string value, and malformed grades', () => {
    const rule = (extra: object) => ({ ...near(), preferred: [{ field: 'zoning', op: 'eq', value: 'industrial', weight: 1, ...extra }] });
    expect(issuesOf(rule({ grade: { zero_at: 3 } }))).toEqual(['preferred.0.grade:value_error']);
    const text = { ...near(), preferred: [{ field: 'zoning', op: 'lt', value: 'm', weight: 1, grade: { zero_at: 3 } }] };
    expect(issuesOf(text)).toEqual(['preferred.0.grade:value_error']);
    expect(issuesOf(near(8000))).toEqual(['preferred.0.grade:dict_type']);
    expect(issuesOf(near({}))).toEqual(['preferred.0.grade.zero_at:missing']);
    expect(issuesOf(near({ zero_at: 8000, slope: 1 }))).toEqual(['preferred.0.grade.slope:extra_forbidden']);
    expect(issuesOf(near({ zero_at: 'far' }))).toEqual(['preferred.0.grade.zero_at:float_parsing']);
    expect(issuesOf(near({ zero_at: 1e16 }))).toEqual(['preferred.0.grade.zero_at:less_than_equal']);
  });

  it('refuses a grade on a must rule (it has no grade key)', () => {
    const draft = { ...near(), must: [{ field: 'acres', op: 'gte', value: 5, grade: { zero_at: 1 } }] };
    expect(issuesOf(draft)).toEqual(['must.0.grade:extra_forbidden']);
  });
});

describe('evaluation of a graded preference (D41)', () => {
  const compiled = compileSpec(
    canonical({
      markets: ['travis-tx'],
      preferred: [
        { field: 'nearest_substation_distance_m', op: 'lte', value: 1500, weight: 3, grade: { zero_at: 8000 } },
        { field: 'zoning', op: 'eq', value: 'industrial', weight: 1 },
      ],
      verdict_cutoffs: CUTOFFS,
    }),
  );
  const evaluate = (distance: unknown, zoning = 'industrial') =>
    compiled.evaluate((field) => (field === 'zoning' ? zoning : field === 'nearest_substation_distance_m' ? distance : undefined));

  it('earns the whole weight up to the value, nothing from zero_at on, a straight line between', () => {
    // By hand: 3 × (8000 − d) / 6500, plus 1 for the zoning; score = 100 × sum / 4.
    expect(evaluate(1000).score).toBe(100);
    expect(evaluate(1500).score).toBe(100);
    expect(evaluate(4750).score).toBe(62.5); // half the weight: 1.5 + 1 = 2.5 of 4
    expect(evaluate(8000).score).toBe(25);
    expect(evaluate(12000).score).toBe(25);
    const at = 2000; // 3 × 6000 / 6500 = 2.769230…; (2.769230… + 1) / 4 = 94.2307…%
    expect(evaluate(at).score).toBe(94.2308);
    expect(evaluate(at).preferred[0]).toEqual({ field: 'nearest_substation_distance_m', value: 2000, weight: 3, contribution: 2.7692 });
  });

  it('separates parcels an all-or-nothing rule ties', () => {
    const scores = [1600, 1700, 3000, 7900].map((distance) => evaluate(distance).score);
    expect(new Set(scores).size).toBe(4);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('an unknown fact adds 0 and is listed in unknowns; a fact that is no number adds 0', () => {
    expect(evaluate(null).unknowns).toEqual(['nearest_substation_distance_m']);
    expect(evaluate(null).score).toBe(25);
    expect(evaluate('far away').score).toBe(25);
    expect(evaluate('far away').unknowns).toEqual([]);
    expect(evaluate('4750').score).toBe(62.5);
  });

  it('mirrors for gt/gte, and a negative weight takes its share away', () => {
    const bigger = compileSpec(
      canonical({
        markets: ['travis-tx'],
        preferred: [
          { field: 'acres', op: 'gte', value: 100, weight: 2, grade: { zero_at: 20 } },
          { field: 'slope_degrees', op: 'gt', value: 10, weight: -2, grade: { zero_at: 5 } },
        ],
        verdict_cutoffs: CUTOFFS,
      }),
    );
    const of = (acres: number, slope: number) => bigger.evaluate((field) => (field === 'acres' ? acres : slope));
    expect(of(100, 0).score).toBe(50); // 2 of 4
    expect(of(60, 0).score).toBe(25); // half of 2
    expect(of(60, 7.5).score).toBe(0); // 1 − 1
    expect(of(10, 20).score).toBe(-50);
    expect(of(60, 0).preferred[1]).toEqual({ field: 'slope_degrees', value: 0, weight: -2, contribution: 0 });
  });

  it('the share is weight × clamp((zero_at − v)/(zero_at − value), 0, 1) for every input', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, min: -1e9, max: 1e9 }), fc.double({ noNaN: true, min: -1e9, max: 1e9 }), fc.double({ min: 1e-3, max: 1e6, noNaN: true }), (v, value, span) => {
        const zeroAt = value + span;
        const share = gradedShare(v, value, zeroAt);
        expect(share).toBeGreaterThanOrEqual(0);
        expect(share).toBeLessThanOrEqual(1);
        if (v <= value) expect(share).toBe(1);
        if (v >= zeroAt) expect(share).toBe(0);
        // The mirrored rule (gt, zero_at below the value) gives the mirrored fact the same share.
        expect(gradedShare(-v, -value, -zeroAt)).toBe(share);
      }),
    );
  });
});

describe('the text language reads grades (D12, D41)', () => {
  const one = (line: string) => {
    const { draft, warnings } = parseBuyBoxText(`market: travis-tx\npursue: 70\nmonitor: 40\n${line}`, FIELD_OPTIONS);
    return { preferred: draft.preferred ?? [], must: draft.must ?? [], warnings: warnings.filter((w) => w.startsWith('line ')) };
  };
  const graded = { field: 'nearest_substation_distance_m', op: 'lte', value: 1500, weight: 3, grade: { zero_at: 8000 } };

  it('reads `grade N` and `falling to 0 at N`, in the field\'s unit, in any order with the weight', () => {
    for (const line of [
      'prefer: nearest_substation_distance_m <= 1500 weight 3 grade 8000',
      'prefer: nearest_substation_distance_m <= 1500 grade 8000 weight 3',
      'prefer: nearest_substation_distance_m <= 1500 weight 3, falling to 0 at 8000',
      'prefer: nearest_substation_distance_m <= 1.5 km falling to zero at 8 km weight 3',
      'prefer: within 1.5 km of a substation, falling to 0 at 8 km, weight 3',
    ]) {
      const read = one(line);
      expect(read.warnings, line).toEqual([]);
      expect(read.preferred, line).toEqual([graded]);
    }
    const { draft } = parseBuyBoxText(`market: travis-tx\n${'prefer: nearest_substation_distance_m <= 1500 weight 3 grade 8000'}`, FIELD_OPTIONS);
    expect(canonical(draft).preferred).toEqual([graded]);
  });

  it('warns and drops a grade that cannot be one, keeping the rule', () => {
    const near = one('prefer: nearest_substation_distance_m <= 1500 weight 3 grade 1000');
    expect(near.preferred).toEqual([{ field: 'nearest_substation_distance_m', op: 'lte', value: 1500, weight: 3 }]);
    expect(near.warnings).toEqual([expect.stringMatching(/^line 4: .*above 1500; the grade is ignored$/)]);
    const onMust = one('must: acres >= 50 grade 10');
    expect(onMust.must).toEqual([{ field: 'acres', op: 'gte', value: 50 }]);
    expect(onMust.warnings).toEqual(['line 4: a grade applies to prefer: rules only; ignored']);
    const onEq = one('prefer: zoning = industrial grade 5');
    expect(onEq.preferred).toEqual([{ field: 'zoning', op: 'eq', value: 'industrial', weight: 1 }]);
    expect(onEq.warnings).toEqual([expect.stringContaining('a grade applies only to lt, lte, gt and gte rules')]);
  });
});
