import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseDraft } from './normalise.js';
import { normaliseOp, valueShapeError } from './ops.js';
import { DEFAULT_CUTOFFS, parseBuyBoxText } from './parse.js';
import { FIELD_OPTIONS } from './testing/fields.js';

const parse = (text: string) => parseBuyBoxText(text, FIELD_OPTIONS);

/** The rules of a one-line text, with the warnings that are about lines (not the defaults). */
function one(line: string) {
  const { draft, warnings } = parse(`market: travis-tx\npursue: 70\nmonitor: 40\n${line}`);
  return { must: draft.must ?? [], preferred: draft.preferred ?? [], warnings: warnings.filter((w) => w.startsWith('line ')) };
}

describe('parseBuyBoxText: the line language of D12', () => {
  it('reads the documented example into a valid draft', () => {
    const { draft, warnings } = parse(
      [
        '# data-center box',
        'market: travis-tx',
        '',
        'must: acres >= 50',
        'must: within_floodplain_polygon = false unknown review',
        'prefer: nearest_substation_distance_m <= 3000 weight 3',
        'pursue: 70',
        'monitor: 40',
      ].join('\n'),
    );
    expect(warnings).toEqual([]);
    expect(draft).toEqual({
      markets: ['travis-tx'],
      must: [
        { field: 'acres', op: 'gte', value: 50 },
        { field: 'within_floodplain_polygon', op: 'eq', value: false, unknown: 'review' },
      ],
      preferred: [{ field: 'nearest_substation_distance_m', op: 'lte', value: 3000, weight: 3 }],
      verdict_cutoffs: { pursue: 70, monitor: 40 },
    });
    expect('spec' in normaliseDraft(draft, FIELD_OPTIONS)).toBe(true);
  });

  it('fills defaults and says so', () => {
    const { draft, warnings } = parse('must: acres >= 50');
    expect(draft).toEqual({
      markets: [],
      must: [{ field: 'acres', op: 'gte', value: 50 }],
      preferred: [],
      verdict_cutoffs: { pursue: 70, monitor: 40 },
    });
    expect(DEFAULT_CUTOFFS).toEqual({ pursue: 70, monitor: 40 });
    expect(warnings).toEqual([
      "no market given; add a line such as 'market: travis-tx'",
      "no 'pursue:' line; the pursue cutoff defaults to 70",
      "no 'monitor:' line; the monitor cutoff defaults to 40",
    ]);
  });

  it('an empty text is an empty draft with warnings, never an exception', () => {
    const { draft, warnings } = parse('');
    expect(draft).toEqual({ markets: [], must: [], preferred: [], verdict_cutoffs: { pursue: 70, monitor: 40 } });
    expect(warnings).toHaveLength(4);
    expect(warnings.at(-1)).toMatch(/no must or prefer rules/);
  });

  it('ignores comments, blank lines, bullets; keeps # inside quotes', () => {
    const { must, warnings } = one('  - must: owner_name = "Lot #5 LLC"   # the seller\n\n   # nothing\n');
    expect(warnings).toEqual([]);
    expect(must).toEqual([{ field: 'owner_name', op: 'eq', value: 'Lot #5 LLC' }]);
  });

  it('handles keywords without a colon, in any case, and CRLF line ends', () => {
    const { draft, warnings } = parse('Market travis-tx\r\nMUST acres > 10\r\nPrefer slope_degrees < 5 weight 2\r\npursue 80\r\nmonitor: 30');
    expect(warnings).toEqual([]);
    expect(draft).toMatchObject({
      markets: ['travis-tx'],
      must: [{ field: 'acres', op: 'gt', value: 10 }],
      preferred: [{ field: 'slope_degrees', op: 'lt', value: 5, weight: 2 }],
      verdict_cutoffs: { pursue: 80, monitor: 30 },
    });
  });

  it.each([
    ['acres = 50', 'eq', 50],
    ['acres == 50', 'eq', 50],
    ['acres != 50', 'ne', 50],
    ['acres < 50', 'lt', 50],
    ['acres <= 50', 'lte', 50],
    ['acres > 50', 'gt', 50],
    ['acres >= 50', 'gte', 50],
    ['acres>=50', 'gte', 50],
    ['acres gte 50', 'gte', 50],
    ['acres ≥ 50', 'gte', 50],
    ['acres <> 50', 'ne', 50],
    ['acres => 50', 'gte', 50],
    ['acres =< 50', 'lte', 50],
    ['acres >= 1,000', 'gte', 1000],
    ['acres >= -2.5', 'gte', -2.5],
  ])('structured: %s', (line, op, value) => {
    expect(one(`must: ${line}`).must).toEqual([{ field: 'acres', op, value }]);
  });

  it('structured values: quoted strings, bare words, booleans, null', () => {
    expect(one('must: zoning = "light industrial"').must[0].value).toBe('light industrial');
    expect(one("must: zoning = 'C-1'").must[0].value).toBe('C-1');
    expect(one('must: zoning = light industrial').must[0].value).toBe('light industrial');
    expect(one('must: within_floodplain_polygon = FALSE').must[0].value).toBe(false);
    expect(one('must: in_opportunity_zone is true').must[0]).toEqual({ field: 'in_opportunity_zone', op: 'eq', value: true });
    expect(one('must: zoning is not residential').must[0]).toEqual({ field: 'zoning', op: 'ne', value: 'residential' });
    expect(one('must: owner_name contains smith').must[0]).toEqual({ field: 'owner_name', op: 'contains', value: 'smith' });
  });

  it('between forms', () => {
    const expected = [{ field: 'acres', op: 'between', value: [50, 200] }];
    expect(one('must: acres between 50 and 200').must).toEqual(expected);
    expect(one('must: acres between [50, 200]').must).toEqual(expected);
    expect(one('must: acres between 50 to 200').must).toEqual(expected);
    expect(one('must: acres between 50-200').must).toEqual(expected);
    expect(one('between 50 and 200 acres').must).toEqual(expected);
    expect(one('50-200 acres').must).toEqual(expected);
    const reversed = one('must: acres between 200 and 50');
    expect(reversed.must).toEqual(expected);
    expect(reversed.warnings).toEqual(['line 4: the range was written high to low; read as between 50 and 200']);
    expect(one('must: elevation between 1 and 2 km').must).toEqual([{ field: 'elevation', op: 'between', value: [1000, 2000] }]);
  });

  it('in / not in lists', () => {
    expect(one('must: zoning in (industrial, commercial, "mixed, use")').must).toEqual([
      { field: 'zoning', op: 'in', value: ['industrial', 'commercial', 'mixed, use'] },
    ]);
    expect(one('must: zoning not in [residential]').must).toEqual([{ field: 'zoning', op: 'not_in', value: ['residential'] }]);
    expect(one('must: zoning not_in (a, b)').must[0].op).toBe('not_in');
    expect(one('must: zoning = (industrial, commercial)').must).toEqual([{ field: 'zoning', op: 'in', value: ['industrial', 'commercial'] }]);
    expect(one('must: protected_area_gap_status in (1, 2)').must[0].value).toEqual([1, 2]);
  });

  it('exists forms', () => {
    expect(one('must: parcel_zoning exists').must).toEqual([{ field: 'parcel_zoning', op: 'exists', value: true }]);
    expect(one('must: parcel_zoning exists false').must[0].value).toBe(false);
    expect(one('must: parcel_zoning does not exist').must[0].value).toBe(false);
  });

  it('modifiers: unknown policy and weight, in either order', () => {
    expect(one('must: acres >= 50 unknown review').must[0]).toEqual({ field: 'acres', op: 'gte', value: 50, unknown: 'review' });
    expect(one('must: acres >= 50 (review if unknown)').must[0].unknown).toBe('review');
    expect(one('must: acres >= 50 unknown: exclude').must[0].unknown).toBe('exclude');
    expect(one('prefer: acres >= 50 weight 2.5').preferred[0].weight).toBe(2.5);
    expect(one('prefer: acres >= 50 (weight -1)').preferred[0].weight).toBe(-1);
    expect(one('prefer: acres >= 50').preferred[0].weight).toBe(1);
    const both = one('prefer: acres >= 50 weight 3 unknown review');
    expect(both.preferred).toEqual([{ field: 'acres', op: 'gte', value: 50, weight: 3 }]);
    expect(both.warnings).toEqual([
      'line 4: an unknown policy applies to must: rules only (an unknown preferred fact scores 0); ignored',
    ]);
    expect(one('must: acres >= 50 weight 3').warnings).toEqual(['line 4: weight applies to prefer: rules only; ignored']);
  });

  it('must not negates the rule', () => {
    expect(one('must not: in a floodplain').must).toEqual([{ field: 'within_floodplain_polygon', op: 'eq', value: false }]);
    expect(one('must not: zoning in (residential)').must).toEqual([{ field: 'zoning', op: 'not_in', value: ['residential'] }]);
    expect(one('must not: acres < 50').must).toEqual([{ field: 'acres', op: 'gte', value: 50 }]);
    expect(one('must not: acres between 1 and 2').warnings[0]).toMatch(/'must not' cannot be applied to between/);
  });
});

describe('parseBuyBoxText: common phrasings', () => {
  it.each([
    ['at least 50 acres', { field: 'acres', op: 'gte', value: 50 }],
    ['at most 200 acres', { field: 'acres', op: 'lte', value: 200 }],
    ['more than 50 acres', { field: 'acres', op: 'gt', value: 50 }],
    ['less than 200 acres', { field: 'acres', op: 'lt', value: 200 }],
    ['50+ acres', { field: 'acres', op: 'gte', value: 50 }],
    ['50 acres or more', { field: 'acres', op: 'gte', value: 50 }],
    ['with at least 50 acres', { field: 'acres', op: 'gte', value: 50 }],
    ['at least 50 developable acres', { field: 'developable_acres', op: 'gte', value: 50 }],
    ['at least 20 hectares', { field: 'acres', op: 'gte', value: 49.4210762533 }],
    ['within 2 km of a substation', { field: 'nearest_substation_distance_m', op: 'lte', value: 2000 }],
    ['within 2km of the nearest substation', { field: 'nearest_substation_distance_m', op: 'lte', value: 2000 }],
    ['within 500 m of substations', { field: 'nearest_substation_distance_m', op: 'lte', value: 500 }],
    ['within 5 miles of a transmission line', { field: 'nearest_transmission_line_distance_m', op: 'lte', value: 8046.72 }],
    ['within 1,000 feet of a gas pipeline', { field: 'nearest_gas_pipeline_distance_m', op: 'lte', value: 304.8 }],
    ['more than 1 mile from a superfund site', { field: 'nearest_superfund_distance_m', op: 'gt', value: 1609.344 }],
    ['at least 3 km away from an airport', { field: 'nearest_airport_distance_m', op: 'gte', value: 3000 }],
    ['not in a floodplain', { field: 'within_floodplain_polygon', op: 'eq', value: false }],
    ['not in the 100-year floodplain', { field: 'within_floodplain_polygon', op: 'eq', value: false }],
    ['outside the flood zone', { field: 'within_floodplain_polygon', op: 'eq', value: false }],
    ['in an opportunity zone', { field: 'in_opportunity_zone', op: 'eq', value: true }],
    ['no wetlands', { field: 'intersects_wetland', op: 'eq', value: false }],
    ['zoned industrial', { field: 'zoning', op: 'eq', value: 'industrial' }],
    ['zoned Industrial or Commercial', { field: 'zoning', op: 'in', value: ['Industrial', 'Commercial'] }],
    ['not zoned residential', { field: 'zoning', op: 'ne', value: 'residential' }],
    ['slope under 5 degrees', { field: 'slope_degrees', op: 'lt', value: 5 }],
    ['slope is below 5 degrees', { field: 'slope_degrees', op: 'lt', value: 5 }],
    ['elevation below 300 m', { field: 'elevation', op: 'lt', value: 300 }],
    ['distance to substation under 2 km', { field: 'nearest_substation_distance_m', op: 'lt', value: 2000 }],
    ['tree canopy under 20%', { field: 'tree_canopy_pct', op: 'lt', value: 20 }],
    ['land use is agricultural', { field: 'land_use', op: 'eq', value: 'agricultural' }],
    ['acres at least 50', { field: 'acres', op: 'gte', value: 50 }],
  ])('%s', (line, rule) => {
    const result = one(line);
    expect(result.warnings).toEqual([]);
    expect(result.must).toHaveLength(1);
    const [parsed] = result.must;
    expect(parsed).toMatchObject({ field: rule.field, op: rule.op });
    if (typeof rule.value === 'number') expect(parsed.value).toBeCloseTo(rule.value, 6);
    else expect(parsed.value).toEqual(rule.value);
  });

  it('phrasings work behind must: and prefer: with modifiers', () => {
    const { must, preferred, warnings } = one(
      'must: be zoned industrial unknown review\nprefer: within 2 km of a substation weight 3\nmust be at least 50 acres',
    );
    expect(warnings).toEqual([]);
    expect(must).toEqual([
      { field: 'zoning', op: 'eq', value: 'industrial', unknown: 'review' },
      { field: 'acres', op: 'gte', value: 50 },
    ]);
    expect(preferred).toEqual([{ field: 'nearest_substation_distance_m', op: 'lte', value: 2000, weight: 3 }]);
  });

  it('converts units into the unit the field is stored in, structured rules included', () => {
    expect(one('must: nearest_substation_distance_m <= 3 km').must[0].value).toBe(3000);
    expect(one('must: acres >= 10 ha').must[0].value).toBeCloseTo(24.7105, 4);
    expect(one('must: nearest_transmission_line_voltage_kv >= 138000 V').must[0].value).toBe(138);
    expect(one('must: bedrock_depth_cm > 2 m').must[0].value).toBe(200);
  });

  it('refuses a unit of the wrong kind with a warning', () => {
    const result = one('must: acres >= 3 km');
    expect(result.must).toEqual([]);
    expect(result.warnings).toEqual([`line 4: 'km' is not a unit of 'acres' (stored in acres) (in "must: acres >= 3 km")`]);
  });

  it('keeps a number whose field unit is unknown, and says so', () => {
    const result = one('must: fiber_provider_count >= 2 km');
    expect(result.must[0].value).toBe(2);
    expect(result.warnings[0]).toMatch(/the unit of 'fiber_provider_count' is not known/);
  });
});

describe('parseBuyBoxText: warnings', () => {
  it('unknown field names get a did-you-mean warning; the rule is kept for the user to fix', () => {
    const result = one('must: acrs >= 50');
    expect(result.must).toEqual([{ field: 'acrs', op: 'gte', value: 50 }]);
    expect(result.warnings).toEqual(["line 4: unknown field 'acrs'; did you mean 'acres'?"]);
    expect(one('must: nearest_substation_distanse_m <= 5').warnings).toEqual([
      "line 4: unknown field 'nearest_substation_distanse_m'; did you mean 'nearest_substation_distance_m'?",
    ]);
    expect(one('must: zzzzzzzz = 1').warnings).toEqual(["line 4: unknown field 'zzzzzzzz'"]);
  });

  it('field names are read case-insensitively when only the lower case is known', () => {
    expect(one('must: Acres >= 5')).toMatchObject({ must: [{ field: 'acres' }], warnings: [] });
  });

  it('lines that cannot be understood are named by number', () => {
    const { draft, warnings } = parse(
      'market: travis-tx\npursue: 70\nmonitor: 40\nmust: acres >= 50\nhello world\nmust: ???\nname: Austin DC\npursue: high\nat least 50\nwithin 2 km of a unicorn',
    );
    expect(draft.must).toEqual([{ field: 'acres', op: 'gte', value: 50 }]);
    expect(warnings).toEqual([
      'line 5: could not understand "hello world"',
      'line 6: could not understand "must: ???"',
      "line 7: 'name:' is not part of the buy-box language (market, must, must not, prefer, pursue, monitor); ignored",
      "line 8: pursue: expects a number (a score from 0 to 100), e.g. 'pursue: 70'",
      'line 9: could not understand "at least 50"',
      `line 10: no distance field is known for 'a unicorn' (in "within 2 km of a unicorn")`,
    ]);
  });

  it('a value of the wrong shape is a warning, not a rule', () => {
    expect(one('must: zoning in ()').warnings).toEqual(['line 4: in needs a list, e.g. (a, b, c) (in "must: zoning in ()")']);
    expect(one('must: acres >= true').warnings).toEqual(['line 4: gte expects a number or a string (in "must: acres >= true")']);
    expect(one('must: acres between 5').warnings[0]).toMatch(/between needs two values/);
  });

  it('market: one, trimmed; repeated statements warn and the last wins', () => {
    const { draft, warnings } = parse('market: "travis-tx", hays-tx\nmarket: williamson-tx\npursue: 60\npursue: 65%\nmonitor: 30\nmust: acres > 1');
    expect(draft.markets).toEqual(['williamson-tx']);
    expect(draft.verdict_cutoffs).toEqual({ pursue: 65, monitor: 30 });
    expect(warnings).toEqual([
      "line 1: a buy box has exactly one market; using 'travis-tx'",
      "line 2: market given again (first on line 1); using 'williamson-tx'",
      'line 4: pursue cutoff given again (first on line 3); using 65',
    ]);
  });

  it('warns when monitor is above pursue', () => {
    expect(parse('market: m\npursue: 30\nmonitor: 60\nmust: acres > 1').warnings).toEqual([
      'the monitor cutoff (60) is above the pursue cutoff (30); no parcel will be MONITOR',
    ]);
  });

  it('a line that reads as a rule after an unknown key is taken as a must', () => {
    expect(one('slope: under 5 degrees')).toEqual({ must: [{ field: 'slope_degrees', op: 'lt', value: 5 }], preferred: [], warnings: [] });
  });

  it('never throws and only ever emits rules of a valid shape (property)', () => {
    const words = fc.constantFrom(
      'must:', 'prefer:', 'market:', 'pursue:', 'at least', 'within', 'of a', 'substation', 'acres', 'zoned', 'not in',
      'floodplain', '>=', '=', 'in', '(', ')', ',', '"', "'", 'between', 'and', '50', '-3', '2 km', 'weight', 'unknown',
      'review', '#', 'true', 'exists', '\n', ' ', 'slope', 'degrees', '+', 'or more', '%', '$', '[', ']',
    );
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.array(words, { maxLength: 30 }).map((parts) => parts.join(' '))), (text) => {
        const { draft, warnings } = parse(text);
        expect(Array.isArray(warnings)).toBe(true);
        for (const rule of [...(draft.must ?? []), ...(draft.preferred ?? [])]) {
          const op = normaliseOp(rule.op);
          expect(op).not.toBeNull();
          expect(valueShapeError(op!, rule.value)).toBeNull();
        }
      }),
      { numRuns: 500 },
    );
  });
});
