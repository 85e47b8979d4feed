import { describe, expect, it } from 'vitest';
import { normaliseDraft } from './normalise.js';
import { FIELD_OPTIONS } from './testing/fields.js';
import type { CanonicalSpec, ValidationIssue } from './types.js';

const base = () => ({ markets: ['travis-tx'], verdict_cutoffs: { pursue: 70, monitor: 40 } });

function issuesOf(draft: unknown): ValidationIssue[] {
  const result = normaliseDraft(draft, FIELD_OPTIONS);
  if (!('issues' in result)) throw new Error(`expected issues, got ${JSON.stringify(result.spec)}`);
  return result.issues;
}

function specOf(draft: unknown): CanonicalSpec {
  const result = normaliseDraft(draft, FIELD_OPTIONS);
  if (!('spec' in result)) throw new Error(`expected a spec, got ${JSON.stringify(result.issues)}`);
  return result.spec;
}

const brief = (issues: ValidationIssue[]) => issues.map(({ loc, type }) => ({ loc, type }));

describe('normaliseDraft: rule errors', () => {
  it('an unknown op is literal_error at the op, listing the accepted ops', () => {
    const issues = issuesOf({ ...base(), must: [{ field: 'acres', op: 'like', value: 5 }] });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ loc: ['must', 0, 'op'], type: 'literal_error', input: 'like' });
    const expected = String(issues[0].ctx?.expected);
    for (const op of ['eq', 'not_in', 'between', 'exists', '>=', '!=']) expect(expected).toContain(`'${op}'`);
    expect(issues[0].msg).toBe(`Input should be ${expected}`);
  });

  it.each([
    ['between', 5, /between expects a list \[lo, hi\]/],
    ['between', [200, 50], /lo > hi/],
    ['between', [1, 'x'], /two numbers or two strings/],
    ['in', [], /in expects a non-empty list/],
    ['not_in', 'industrial', /not_in expects a non-empty list/],
    ['exists', 'yes', /exists expects a boolean/],
    ['>=', true, /gte expects a number or a string/],
    ['eq', [1, 2], /eq expects a scalar/],
    ['contains', { a: 1 }, /contains expects a scalar/],
  ])('op %s with value %j is value_error at the value', (op, value, message) => {
    const issues = issuesOf({ ...base(), preferred: [{ field: 'acres', op, value, weight: 1 }] });
    expect(brief(issues)).toEqual([{ loc: ['preferred', 0, 'value'], type: 'value_error' }]);
    expect(issues[0].msg).toMatch(/^Value error, /);
    expect(issues[0].msg).toMatch(message);
    expect(issues[0].input).toEqual(value);
    expect(issues[0].ctx?.error).toMatch(message);
  });

  it('an unknown field is value_error at the field with a did-you-mean', () => {
    const issues = issuesOf({ ...base(), must: [{ field: 'acres', op: '>=', value: 5 }, { field: 'acrs', op: '>=', value: 5 }] });
    expect(issues).toEqual([
      {
        loc: ['must', 1, 'field'],
        type: 'value_error',
        msg: "Value error, unknown field 'acrs'; did you mean 'acres'?",
        input: 'acrs',
        ctx: { error: "unknown field 'acrs'; did you mean 'acres'?", did_you_mean: 'acres' },
      },
    ]);
  });

  it('an unknown field with nothing close says so without a suggestion', () => {
    const [item] = issuesOf({ ...base(), must: [{ field: 'qqqqqqqqqqqq', op: 'eq', value: 1 }] });
    expect(item.msg).toBe("Value error, unknown field 'qqqqqqqqqqqq'");
    expect(item.ctx?.did_you_mean).toBeNull();
  });

  it('draws suggestions from the catalog when the caller gives no names', () => {
    const result = normaliseDraft(
      { ...base(), must: [{ field: 'slope_degree', op: 'lt', value: 5 }] },
      { knownField: () => false },
    );
    expect('issues' in result && result.issues[0].msg).toContain("did you mean 'slope_degrees'?");
  });

  it('reports every issue of every rule, in draft order', () => {
    const issues = issuesOf({
      markets: ['travis-tx'],
      must: [
        { field: 'acres', op: '>=', value: 50 },
        { field: 'acrs', op: 'like', value: 5 },
        { field: 'zoning', op: 'in', value: [], unknown: 'maybe' },
      ],
      preferred: [
        { field: 'acres', op: 'gte', value: 1, weight: 'heavy' },
        { field: 'acres', op: 'gte', value: 1 },
        { field: 'slope_degrees', op: 'between', value: [5, 1], weight: 2, extra: true },
      ],
      verdict_cutoffs: { pursue: 70 },
    });
    expect(brief(issues)).toEqual([
      { loc: ['must', 1, 'field'], type: 'value_error' },
      { loc: ['must', 1, 'op'], type: 'literal_error' },
      { loc: ['must', 2, 'value'], type: 'value_error' },
      { loc: ['must', 2, 'unknown'], type: 'literal_error' },
      { loc: ['preferred', 0, 'weight'], type: 'float_parsing' },
      { loc: ['preferred', 1, 'weight'], type: 'missing' },
      { loc: ['preferred', 2, 'extra'], type: 'extra_forbidden' },
      { loc: ['preferred', 2, 'value'], type: 'value_error' },
      { loc: ['verdict_cutoffs', 'monitor'], type: 'missing' },
    ]);
  });

  it('checks the rule fields themselves', () => {
    const issues = issuesOf({
      ...base(),
      must: [
        'acres >= 5',
        { op: 'eq', value: 1 },
        { field: 5, op: 5, value: 1 },
        { field: '', op: '', value: 1 },
        { field: 'x'.repeat(101), op: 'x'.repeat(21), value: 1 },
        { field: 'acres', op: 'eq' },
        { field: 'acres', op: 'exists', value: true, unknown: 'review', weight: 3 },
      ],
    });
    expect(brief(issues)).toEqual([
      { loc: ['must', 0], type: 'dict_type' },
      { loc: ['must', 1, 'field'], type: 'missing' },
      { loc: ['must', 2, 'field'], type: 'string_type' },
      { loc: ['must', 2, 'op'], type: 'string_type' },
      { loc: ['must', 3, 'field'], type: 'string_too_short' },
      { loc: ['must', 3, 'op'], type: 'string_too_short' },
      { loc: ['must', 4, 'field'], type: 'string_too_long' },
      { loc: ['must', 4, 'op'], type: 'string_too_long' },
      { loc: ['must', 5, 'value'], type: 'missing' },
      { loc: ['must', 6, 'weight'], type: 'extra_forbidden' },
    ]);
  });

  it('unknown is a must-rule key only', () => {
    const issues = issuesOf({ ...base(), preferred: [{ field: 'acres', op: 'gte', value: 1, weight: 1, unknown: 'review' }] });
    expect(brief(issues)).toEqual([{ loc: ['preferred', 0, 'unknown'], type: 'extra_forbidden' }]);
  });
});

describe('normaliseDraft: draft errors', () => {
  it('a draft that is not an object', () => {
    expect(brief(issuesOf(null))).toEqual([{ loc: [], type: 'dict_type' }]);
    expect(brief(issuesOf([]))).toEqual([{ loc: [], type: 'dict_type' }]);
  });

  it('missing required keys and unknown extra keys', () => {
    expect(brief(issuesOf({ name: 'x' }))).toEqual([
      { loc: ['name'], type: 'extra_forbidden' },
      { loc: ['markets'], type: 'missing' },
      { loc: ['verdict_cutoffs'], type: 'missing' },
    ]);
  });

  it('markets: exactly one string of 1-100 characters', () => {
    expect(brief(issuesOf({ ...base(), markets: [] }))).toEqual([{ loc: ['markets'], type: 'too_short' }]);
    expect(brief(issuesOf({ ...base(), markets: ['a', 'b'] }))).toEqual([{ loc: ['markets'], type: 'too_long' }]);
    expect(brief(issuesOf({ ...base(), markets: 'travis-tx' }))).toEqual([{ loc: ['markets'], type: 'list_type' }]);
    expect(brief(issuesOf({ ...base(), markets: [7] }))).toEqual([{ loc: ['markets', 0], type: 'string_type' }]);
    expect(brief(issuesOf({ ...base(), markets: ['  '] }))).toEqual([{ loc: ['markets', 0], type: 'string_too_short' }]);
    expect(brief(issuesOf({ ...base(), markets: ['m'.repeat(101)] }))).toEqual([
      { loc: ['markets', 0], type: 'string_too_long' },
    ]);
  });

  it('must/preferred: lists of at most 50', () => {
    const rule = { field: 'acres', op: 'gte', value: 1 };
    expect(brief(issuesOf({ ...base(), must: null }))).toEqual([{ loc: ['must'], type: 'list_type' }]);
    expect(brief(issuesOf({ ...base(), preferred: {} }))).toEqual([{ loc: ['preferred'], type: 'list_type' }]);
    const [tooLong] = issuesOf({ ...base(), must: Array.from({ length: 51 }, () => rule) });
    expect(tooLong).toMatchObject({ loc: ['must'], type: 'too_long', ctx: { max_length: 50, actual_length: 51 } });
    expect(specOf({ ...base(), must: Array.from({ length: 50 }, (_, i) => ({ ...rule, value: i })) }).must).toHaveLength(50);
  });

  it('verdict_cutoffs: two numbers', () => {
    expect(brief(issuesOf({ ...base(), verdict_cutoffs: 70 }))).toEqual([{ loc: ['verdict_cutoffs'], type: 'dict_type' }]);
    expect(brief(issuesOf({ ...base(), verdict_cutoffs: { pursue: true, monitor: 'x', other: 1 } }))).toEqual([
      { loc: ['verdict_cutoffs', 'other'], type: 'extra_forbidden' },
      { loc: ['verdict_cutoffs', 'pursue'], type: 'float_type' },
      { loc: ['verdict_cutoffs', 'monitor'], type: 'float_parsing' },
    ]);
    expect(brief(issuesOf({ ...base(), verdict_cutoffs: { pursue: Number.NaN, monitor: 1 } }))).toEqual([
      { loc: ['verdict_cutoffs', 'pursue'], type: 'finite_number' },
    ]);
  });
});

describe('normaliseDraft: canonical form', () => {
  it('normalises ops, makes unknown explicit, sorts rules and in-lists', () => {
    const spec = specOf({
      markets: [' travis-tx '],
      must: [
        { field: 'zoning', op: 'IN', value: ['industrial', 'commercial', 'industrial', 5, true, null] },
        { field: 'acres', op: '>=', value: 50, unknown: null },
        { field: 'acres', op: '<=', value: 200, unknown: 'review' },
        { field: 'within_floodplain_polygon', op: '==', value: false },
      ],
      preferred: [
        { field: 'nearest_substation_distance_m', op: ' <= ', value: 3000, weight: 3 },
        { field: 'acres', op: 'gt', value: -0, weight: '2' },
      ],
      verdict_cutoffs: { pursue: 70, monitor: -0 },
    });
    expect(spec).toEqual({
      markets: ['travis-tx'],
      must: [
        { field: 'acres', op: 'gte', value: 50, unknown: 'exclude' },
        { field: 'acres', op: 'lte', value: 200, unknown: 'review' },
        { field: 'within_floodplain_polygon', op: 'eq', value: false, unknown: 'exclude' },
        { field: 'zoning', op: 'in', value: ['commercial', 'industrial', 5, null, true], unknown: 'exclude' },
      ],
      preferred: [
        { field: 'acres', op: 'gt', value: 0, weight: 2 },
        { field: 'nearest_substation_distance_m', op: 'lte', value: 3000, weight: 3 },
      ],
      verdict_cutoffs: { pursue: 70, monitor: 0 },
    });
    expect(Object.is(spec.preferred[0].value, 0)).toBe(true);
    expect(Object.is(spec.verdict_cutoffs.monitor, 0)).toBe(true);
  });

  it('in-lists are sorted by canonical JSON: strings after numbers, null and booleans by their text', () => {
    const spec = specOf({ ...base(), must: [{ field: 'zoning', op: 'not_in', value: ['b', 10, 'a', 9, true, 'a', null, 10] }] });
    // canonical JSON texts: "\"a\"", "\"b\"", "10", "9", "null", "true" — sorted by code unit.
    expect(spec.must[0].value).toEqual(['a', 'b', 10, 9, null, true]);
  });

  it('keeps the order of between bounds and the case of string values', () => {
    const spec = specOf({ ...base(), must: [{ field: 'acres', op: 'between', value: [50, 200] }, { field: 'zoning', op: 'eq', value: 'Industrial' }] });
    expect(spec.must.map((rule) => rule.value)).toEqual([[50, 200], 'Industrial']);
  });

  it('trims field names', () => {
    expect(specOf({ ...base(), must: [{ field: ' acres ', op: 'gte', value: 1 }] }).must[0].field).toBe('acres');
  });

  it('drops exact duplicate must rules, keeps duplicate preferred rules (each weighs)', () => {
    const spec = specOf({
      ...base(),
      must: [
        { field: 'acres', op: 'gte', value: 50 },
        { field: 'acres', op: '>=', value: 50, unknown: 'exclude' },
        { field: 'acres', op: '>=', value: 50, unknown: 'review' },
      ],
      preferred: [
        { field: 'acres', op: 'gte', value: 50, weight: 1 },
        { field: 'acres', op: 'gte', value: 50, weight: 1 },
      ],
    });
    expect(spec.must).toEqual([
      { field: 'acres', op: 'gte', value: 50, unknown: 'exclude' },
      { field: 'acres', op: 'gte', value: 50, unknown: 'review' },
    ]);
    expect(spec.preferred).toHaveLength(2);
  });

  it('absent must/preferred become empty lists', () => {
    expect(specOf(base())).toEqual({ ...base(), must: [], preferred: [] });
  });

  it('does not share arrays with the draft', () => {
    const list = ['b', 'a'];
    const spec = specOf({ ...base(), must: [{ field: 'zoning', op: 'in', value: list }] });
    (spec.must[0].value as string[]).push('c');
    expect(list).toEqual(['b', 'a']);
  });
});
