import { describe, expect, it } from 'vitest';
import { DRAFT_LIMITS, normaliseDraft } from './normalise.js';
import { parseBuyBoxText } from './parse.js';
import { preferenceWeightTotal, scoreOf } from './score.js';
import { FIELD_OPTIONS } from './testing/fields.js';

// Weights and cutoffs are bounded so that every score is finite (docs/decisions.md): a preferred
// weight of 1e307 once made every score null, every parcel HOLD and every next cursor invalid.

const BOUND = DRAFT_LIMITS.scoreInput;
const draft = (weight: unknown, cutoffs: Record<string, unknown> = { pursue: 70, monitor: 40 }) => ({
  markets: ['travis-tx'],
  preferred: [{ field: 'acres', op: 'gte', value: 50, weight }],
  verdict_cutoffs: cutoffs,
});
const brief = (result: ReturnType<typeof normaliseDraft>) =>
  'issues' in result ? result.issues.map(({ loc, type, ctx }) => ({ loc, type, ctx })) : 'valid';

describe('normaliseDraft: bounds of weights and cutoffs', () => {
  it('accepts ±1,000,000', () => {
    expect(brief(normaliseDraft(draft(BOUND, { pursue: BOUND, monitor: -BOUND }), FIELD_OPTIONS))).toBe('valid');
    expect(brief(normaliseDraft(draft(-BOUND), FIELD_OPTIONS))).toBe('valid');
  });

  it('refuses a weight beyond, on its loc, as the gateway does', () => {
    expect(brief(normaliseDraft(draft(1e307), FIELD_OPTIONS))).toEqual([
      { loc: ['preferred', 0, 'weight'], type: 'less_than_equal', ctx: { le: BOUND } },
    ]);
    expect(brief(normaliseDraft(draft('-1000000.5'), FIELD_OPTIONS))).toEqual([
      { loc: ['preferred', 0, 'weight'], type: 'greater_than_equal', ctx: { ge: -BOUND } },
    ]);
  });

  it('refuses cutoffs beyond', () => {
    expect(brief(normaliseDraft(draft(1, { pursue: 1e9, monitor: -1e300 }), FIELD_OPTIONS))).toEqual([
      { loc: ['verdict_cutoffs', 'pursue'], type: 'less_than_equal', ctx: { le: BOUND } },
      { loc: ['verdict_cutoffs', 'monitor'], type: 'greater_than_equal', ctx: { ge: -BOUND } },
    ]);
  });
});

describe('scoreOf and preferenceWeightTotal: always finite', () => {
  it('scores the largest allowed weights exactly', () => {
    const weights = Array.from({ length: DRAFT_LIMITS.rules }, () => ({ weight: BOUND }));
    const total = preferenceWeightTotal(weights);
    expect(total).toBe(5e7);
    expect(scoreOf(49 * BOUND, total)).toBe(98);
    expect(scoreOf(-BOUND, total)).toBe(-2);
  });

  it('stays within [-100, 100] for weights beyond the bound (a spec stored before it)', () => {
    const total = preferenceWeightTotal([{ weight: 1e308 }, { weight: 1e308 }, { weight: -1e308 }]);
    expect(total).toBe(Number.MAX_VALUE);
    expect(scoreOf(1e307, 1e307)).toBe(100);
    expect(scoreOf(2e308, total)).toBe(100);
    expect(scoreOf(-Infinity, total)).toBe(-100);
    expect(scoreOf(1e308, total)).toBeCloseTo(55.6, 1);
    for (const score of [scoreOf(Infinity, Infinity), scoreOf(0, Infinity), scoreOf(1e307, 1e-300)]) expect(Number.isFinite(score)).toBe(true);
  });
});

describe('parseBuyBoxText: bounds', () => {
  const parse = (line: string) => parseBuyBoxText(`market: travis-tx\n${line}`, FIELD_OPTIONS);

  it('ignores a weight beyond the bound, with a warning, so the draft can be saved', () => {
    const { draft: parsed, warnings } = parse(`prefer: acres >= 50 weight ${'9'.repeat(400)}\nprefer: acres >= 10 weight 1000000`);
    expect(parsed.preferred).toEqual([{ field: 'acres', op: 'gte', value: 10, weight: BOUND }]);
    expect(warnings).toContain('line 2: the weight is beyond ±1,000,000; rule ignored');
  });

  it('ignores a cutoff beyond the bound, with a warning, and keeps the default', () => {
    const { draft: parsed, warnings } = parse('pursue: 10000001\nmonitor: 20');
    expect(parsed.verdict_cutoffs).toEqual({ pursue: 70, monitor: 20 });
    expect(warnings).toContain('line 2: pursue: 10000001 is beyond ±1,000,000; ignored');
  });
});
