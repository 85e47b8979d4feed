import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSpec } from './evaluate.js';
import { normaliseDraft } from './normalise.js';
import { roundScore, scoreOf, verdictOf } from './score.js';
import { FIELD_OPTIONS } from './testing/fields.js';
import type { CanonicalSpec, DiscoveryDraft } from './types.js';

function spec(draft: Partial<DiscoveryDraft>): CanonicalSpec {
  const result = normaliseDraft(
    { markets: ['travis-tx'], verdict_cutoffs: { pursue: 70, monitor: 40 }, ...draft },
    FIELD_OPTIONS,
  );
  if (!('spec' in result)) throw new Error(JSON.stringify(result.issues));
  return result.spec;
}

const facts = (record: Record<string, unknown>) => (field: string) => record[field];

describe('must rules (D14)', () => {
  const compiled = compileSpec(
    spec({
      must: [
        { field: 'acres', op: '>=', value: 50 },
        { field: 'within_floodplain_polygon', op: 'eq', value: false, unknown: 'review' },
      ],
    }),
  );

  it('a parcel passing every must is eligible, score 100 without preferred rules', () => {
    const result = compiled.evaluate(facts({ acres: 80, within_floodplain_polygon: false }));
    expect(result).toEqual({
      eligible: true,
      score: 100,
      verdict: 'PURSUE',
      reviewRequired: false,
      unknowns: [],
      must: [
        { field: 'acres', value: 80, status: 'pass' },
        { field: 'within_floodplain_polygon', value: false, status: 'pass' },
      ],
      preferred: [],
      failed: [],
    });
  });

  it('a failing must makes the parcel ineligible (HOLD) and is in failed', () => {
    const result = compiled.evaluate(facts({ acres: 10, within_floodplain_polygon: false }));
    expect(result.eligible).toBe(false);
    expect(result.verdict).toBe('HOLD');
    expect(result.failed).toEqual([{ field: 'acres', value: 10, status: 'fail' }]);
    expect(result.must[0]).toEqual({ field: 'acres', value: 10, status: 'fail' });
  });

  it('unknown under policy exclude (the default) drops the parcel; not listed in unknowns', () => {
    const result = compiled.evaluate(facts({ within_floodplain_polygon: false }));
    expect(result.eligible).toBe(false);
    expect(result.reviewRequired).toBe(false);
    expect(result.unknowns).toEqual([]);
    expect(result.must[0]).toEqual({ field: 'acres', value: null, status: 'unknown' });
    expect(result.failed).toEqual([{ field: 'acres', value: null, status: 'unknown' }]);
  });

  it('unknown under policy review keeps the parcel, flags review and lists the field', () => {
    const result = compiled.evaluate(facts({ acres: 80, within_floodplain_polygon: null }));
    expect(result.eligible).toBe(true);
    expect(result.reviewRequired).toBe(true);
    expect(result.unknowns).toEqual(['within_floodplain_polygon']);
    expect(result.must[1]).toEqual({ field: 'within_floodplain_polygon', value: null, status: 'unknown' });
    expect(result.failed).toEqual([]);
  });

  it('review caps the verdict at MONITOR (score 100 would be PURSUE)', () => {
    const result = compiled.evaluate(facts({ acres: 80 }));
    expect(result.score).toBe(100);
    expect(result.verdict).toBe('MONITOR');
  });

  it('a failing must with review policy is still a failure', () => {
    const result = compiled.evaluate(facts({ acres: 80, within_floodplain_polygon: true }));
    expect(result.eligible).toBe(false);
    expect(result.reviewRequired).toBe(false);
    expect(result.failed).toEqual([{ field: 'within_floodplain_polygon', value: true, status: 'fail' }]);
  });

  it('exists is never unknown: a missing fact fails exists:true even under review', () => {
    const exists = compileSpec(spec({ must: [{ field: 'zoning', op: 'exists', value: true, unknown: 'review' }] }));
    const result = exists.evaluate(facts({}));
    expect(result.must).toEqual([{ field: 'zoning', value: null, status: 'fail' }]);
    expect(result.eligible).toBe(false);
    expect(result.reviewRequired).toBe(false);
    expect(exists.evaluate(facts({ zoning: 'industrial' })).eligible).toBe(true);
  });

  it('reports a NaN fact (a columnar null) as null', () => {
    expect(compiled.evaluate(facts({ acres: Number.NaN })).must[0]).toEqual({ field: 'acres', value: null, status: 'unknown' });
  });
});

describe('preferred rules and the score (D14)', () => {
  const compiled = compileSpec(
    spec({
      preferred: [
        { field: 'nearest_substation_distance_m', op: '<=', value: 3000, weight: 3 },
        { field: 'slope_degrees', op: '<', value: 5, weight: 1 },
        { field: 'zoning', op: 'eq', value: 'industrial', weight: 2 },
      ],
    }),
  );

  it('preference_weight_total is Σ|weight|', () => {
    expect(compiled.preferenceWeightTotal).toBe(6);
    const negative = compileSpec(spec({ preferred: [{ field: 'acres', op: 'gt', value: 1, weight: -4 }, { field: 'acres', op: 'gt', value: 2, weight: 2 }] }));
    expect(negative.preferenceWeightTotal).toBe(6);
  });

  it('a passing rule contributes its weight, a failing one 0', () => {
    const result = compiled.evaluate(facts({ nearest_substation_distance_m: 2500, slope_degrees: 9, zoning: 'Industrial' }));
    // Rules in canonical order: nearest_substation…, slope_degrees, zoning.
    expect(result.preferred).toEqual([
      { field: 'nearest_substation_distance_m', value: 2500, weight: 3, contribution: 3 },
      { field: 'slope_degrees', value: 9, weight: 1, contribution: 0 },
      { field: 'zoning', value: 'Industrial', weight: 2, contribution: 2 },
    ]);
    expect(result.score).toBe(83.3333); // 100 × 5 / 6, rounded to 4 decimals
    expect(result.verdict).toBe('PURSUE');
    expect(result.unknowns).toEqual([]);
  });

  it('an unknown preferred fact contributes 0 and is listed once in unknowns, after must unknowns', () => {
    const both = compileSpec(
      spec({
        must: [{ field: 'zoning', op: 'ne', value: 'residential', unknown: 'review' }],
        preferred: [
          { field: 'zoning', op: 'eq', value: 'industrial', weight: 1 },
          { field: 'slope_degrees', op: 'lt', value: 5, weight: 1 },
          { field: 'slope_degrees', op: 'gte', value: 0, weight: 1 },
        ],
      }),
    );
    const result = both.evaluate(facts({}));
    expect(result.unknowns).toEqual(['zoning', 'slope_degrees']);
    expect(result.preferred.map((p) => p.contribution)).toEqual([0, 0, 0]);
    expect(result.preferred.map((p) => p.value)).toEqual([null, null, null]);
    expect(result.score).toBe(0);
    expect(result.reviewRequired).toBe(true);
    expect(result.eligible).toBe(true);
    expect(result.verdict).toBe('HOLD');
  });

  it('an unknown preferred fact alone does not require review', () => {
    const result = compiled.evaluate(facts({ nearest_substation_distance_m: 100, zoning: 'industrial' }));
    expect(result.unknowns).toEqual(['slope_degrees']);
    expect(result.reviewRequired).toBe(false);
    expect(result.score).toBe(83.3333);
  });

  it('rounds to 4 decimals', () => {
    const thirds = compileSpec(
      spec({
        preferred: [
          { field: 'acres', op: 'gt', value: 0, weight: 1 },
          { field: 'acres', op: 'gt', value: 100, weight: 1 },
          { field: 'acres', op: 'gt', value: 200, weight: 1 },
        ],
      }),
    );
    expect(thirds.evaluate(facts({ acres: 50 })).score).toBe(33.3333);
    expect(thirds.evaluate(facts({ acres: 150 })).score).toBe(66.6667);
    expect(thirds.evaluate(facts({ acres: 250 })).score).toBe(100);
    const sevenths = compileSpec(spec({ preferred: [{ field: 'acres', op: 'gt', value: 0, weight: 1 }, { field: 'acres', op: 'gt', value: 100, weight: 6 }] }));
    expect(sevenths.evaluate(facts({ acres: 50 })).score).toBe(14.2857);
  });

  it('negative weights: a passing rule contributes the (negative) weight itself', () => {
    const penalised = compileSpec(
      spec({
        preferred: [
          { field: 'nearest_superfund_distance_m', op: 'lt', value: 1000, weight: -2 },
          { field: 'acres', op: 'gte', value: 100, weight: 2 },
        ],
      }),
    );
    const near = penalised.evaluate(facts({ nearest_superfund_distance_m: 500, acres: 50 }));
    expect(near.preferred.map((p) => p.contribution)).toEqual([0, -2]);
    expect(near.score).toBe(-50);
    expect(near.verdict).toBe('HOLD');
    expect(penalised.evaluate(facts({ nearest_superfund_distance_m: 500, acres: 150 })).score).toBe(0);
    expect(penalised.evaluate(facts({ nearest_superfund_distance_m: 5000, acres: 150 })).score).toBe(50);
  });

  it('no preferred rules → 100; all weights 0 → 100 as well', () => {
    expect(compileSpec(spec({})).evaluate(facts({})).score).toBe(100);
    const zero = compileSpec(spec({ preferred: [{ field: 'acres', op: 'gt', value: 0, weight: 0 }] }));
    expect(zero.preferenceWeightTotal).toBe(0);
    expect(zero.evaluate(facts({ acres: 5 })).score).toBe(100);
  });

  it('an ineligible parcel keeps its preferred evidence and score but is HOLD', () => {
    const mixed = compileSpec(spec({ must: [{ field: 'acres', op: 'gte', value: 50 }], preferred: [{ field: 'zoning', op: 'eq', value: 'industrial', weight: 1 }] }));
    const result = mixed.evaluate(facts({ acres: 10, zoning: 'industrial' }));
    expect(result.score).toBe(100);
    expect(result.verdict).toBe('HOLD');
  });
});

describe('verdict boundaries (D14)', () => {
  // One preferred rule per score point would be tedious; the verdict depends on the score only.
  const cutoffs = { pursue: 70, monitor: 40 };
  it.each([
    [100, false, 'PURSUE'],
    [70, false, 'PURSUE'],
    [69.9999, false, 'MONITOR'],
    [40, false, 'MONITOR'],
    [39.9999, false, 'HOLD'],
    [0, false, 'HOLD'],
    [-10, false, 'HOLD'],
    [70, true, 'MONITOR'],
    [100, true, 'MONITOR'],
    [40, true, 'MONITOR'],
    [39.9999, true, 'HOLD'],
  ] as const)('score %d (review %s) → %s', (score, review, verdict) => {
    expect(verdictOf(score, cutoffs, review)).toBe(verdict);
  });

  it('evaluated parcels land exactly on the cutoffs', () => {
    const compiled = compileSpec(
      spec({
        verdict_cutoffs: { pursue: 75, monitor: 25 },
        preferred: [
          { field: 'acres', op: 'gte', value: 1, weight: 1 },
          { field: 'acres', op: 'gte', value: 2, weight: 1 },
          { field: 'acres', op: 'gte', value: 3, weight: 1 },
          { field: 'acres', op: 'gte', value: 4, weight: 1 },
        ],
      }),
    );
    expect([0, 1, 2, 3, 4].map((acres) => compiled.evaluate(facts({ acres })))).toMatchObject([
      { score: 0, verdict: 'HOLD' },
      { score: 25, verdict: 'MONITOR' },
      { score: 50, verdict: 'MONITOR' },
      { score: 75, verdict: 'PURSUE' },
      { score: 100, verdict: 'PURSUE' },
    ]);
  });

  it('rounding happens before the cutoff comparison', () => {
    // 100 × 2/3 = 66.666…, rounded 66.6667: a pursue cutoff of 66.6667 is met.
    const compiled = compileSpec(
      spec({
        verdict_cutoffs: { pursue: 66.6667, monitor: 10 },
        preferred: [
          { field: 'acres', op: 'gte', value: 1, weight: 1 },
          { field: 'acres', op: 'gte', value: 2, weight: 1 },
          { field: 'acres', op: 'gte', value: 3, weight: 1 },
        ],
      }),
    );
    expect(compiled.evaluate(facts({ acres: 2 }))).toMatchObject({ score: 66.6667, verdict: 'PURSUE' });
  });
});

describe('score helpers', () => {
  it('roundScore rounds to 4 decimals and never answers -0', () => {
    expect(roundScore(12.345649)).toBe(12.3456);
    expect(roundScore(12.34565001)).toBe(12.3457);
    expect(Object.is(roundScore(-0.00001), 0)).toBe(true);
    expect(scoreOf(1, 3)).toBe(33.3333);
    expect(scoreOf(0, 0)).toBe(100);
  });

  it('roundScore answers exactly what toFixed(4) spells, ties and near-ties included', () => {
    const toFixed = (x: number) => {
      const rounded = Number(x.toFixed(4));
      return rounded === 0 ? 0 : rounded;
    };
    const same = (x: number) => expect(Object.is(roundScore(x), toFixed(x)), String(x)).toBe(true);
    // Halves of the fourth decimal and their neighbours, where x·10⁴ rounds one way and x another.
    for (let n = -2_000_000; n <= 2_000_000; n += 997) {
      const half = (n + 0.5) / 10_000;
      for (const x of [half, nextUp(half), nextDown(half), n / 10_000, 66.66665, 1.00005, 0.00005, -0.00005]) same(x);
    }
    fc.assert(
      fc.property(
        fc.oneof(fc.double({ min: -100, max: 100, noNaN: true }), fc.double({ noNaN: true }), fc.integer({ min: -1_000_000, max: 1_000_000 }).map((n) => n / 20_000)),
        (x) => {
          same(x);
        },
      ),
      { numRuns: 20_000 },
    );
  });
});

function nextUp(x: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  view.setBigUint64(0, x >= 0 ? bits + 1n : bits - 1n);
  return view.getFloat64(0);
}

function nextDown(x: number): number {
  return -nextUp(-x);
}

describe('compiled rules for columnar engines', () => {
  it('exposes one compiled predicate per canonical rule', () => {
    const compiled = compileSpec(
      spec({
        must: [
          { field: 'zoning', op: 'in', value: ['industrial', 'commercial'], unknown: 'review' },
          { field: 'acres', op: '>=', value: 50 },
        ],
        preferred: [{ field: 'slope_degrees', op: '<', value: 5, weight: 2 }],
      }),
    );
    expect(compiled.must.map(({ field, op, policy }) => ({ field, op, policy }))).toEqual([
      { field: 'acres', op: 'gte', policy: 'exclude' },
      { field: 'zoning', op: 'in', policy: 'review' },
    ]);
    const acres = new Float64Array([10, 50, Number.NaN, 120]);
    expect(Array.from(acres, (value) => compiled.must[0].test(value))).toEqual([false, true, undefined, true]);
    expect(compiled.preferred[0]).toMatchObject({ field: 'slope_degrees', op: 'lt', weight: 2 });
    expect(compiled.preferred[0].test(3)).toBe(true);
    expect(compiled.scoreOf(2)).toBe(100);
    expect(compiled.verdictOf(100, true)).toBe('MONITOR');
    expect(compiled.verdictOf(100, false, false)).toBe('HOLD');
  });

  it('evaluates a large market as the rules read, parcel by parcel', () => {
    const compiled = compileSpec(
      spec({
        must: [
          { field: 'acres', op: '>=', value: 50 },
          { field: 'within_floodplain_polygon', op: 'eq', value: false, unknown: 'review' },
          { field: 'zoning', op: 'in', value: ['industrial', 'commercial', 'agricultural'] },
        ],
        preferred: [
          { field: 'nearest_substation_distance_m', op: '<=', value: 3000, weight: 3 },
          { field: 'slope_degrees', op: '<', value: 5, weight: 1 },
        ],
      }),
    );
    const parcels = Array.from({ length: 100_000 }, (_, i) => ({
      acres: i % 200,
      within_floodplain_polygon: i % 7 === 0 ? null : i % 5 === 0,
      zoning: ['industrial', 'Commercial', 'residential'][i % 3],
      nearest_substation_distance_m: (i * 37) % 9000,
      slope_degrees: i % 11,
    }));
    let eligible = 0;
    let review = 0;
    for (const parcel of parcels) {
      const result = compiled.evaluate((field) => parcel[field as keyof typeof parcel]);
      if (result.eligible) eligible++;
      if (result.eligible && result.reviewRequired) review++;
    }
    // Spelled out: 50 acres or more, not in a floodplain (unknown kept for review), and zoned
    // industrial or commercial (strings compare case-insensitively, docs/decisions.md). Speed is
    // bench:discovery's to measure, not a test's.
    const expected = parcels.filter((p, i) => p.acres >= 50 && i % 3 !== 2 && p.within_floodplain_polygon !== true);
    expect(eligible).toBe(expected.length);
    expect(review).toBe(expected.filter((p) => p.within_floodplain_polygon === null).length);
  });
});
