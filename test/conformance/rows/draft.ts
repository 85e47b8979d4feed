import { DRAFT, type EndpointKey } from '../valid-requests.js';
import { body, drop, list, rowsFor, str, type AcceptRow, type BadRow, type Change, type Loc } from './helpers.js';

/**
 * DiscoveryDraft, Rule, PreferredRule and Cutoffs (spec "Resources and their fields" and the
 * "buy-box spec" line of Limits), checked wherever a request carries a draft: at `at` inside the
 * body of `endpoint`.
 */
const rule = (index: number) => ({ field: 'acres', op: 'gte', value: index });
const preferred = (index: number) => ({ field: 'nearest_substation_distance_m', op: 'lte', value: index, weight: 1 });

/** Every row starts from a request carrying the full DRAFT at `at` (some base requests send null). */
const withDraft = (at: Loc) => body(at, structuredClone(DRAFT));

export function draftRows(endpoint: EndpointKey, at: Loc): BadRow[] {
  const { bad } = rowsFor(endpoint);
  const d = at.join('.');
  const s = (name: string, path: Loc, value: unknown, type: string, options: { disagreement?: string } = {}) =>
    bad(`${d}.${name}`, [withDraft(at), body([...at, ...path], value)], ['body', ...at, ...path], type, options);
  const missing = (path: Loc) =>
    bad(`${d}.${path.join('.')} missing`, [withDraft(at), drop([...at, ...path])], ['body', ...at, ...path], 'missing');
  return [
    s('markets with 2 items (exactly 1)', ['markets'], ['travis-tx', 'hays-tx'], 'too_long'),
    s('markets empty (exactly 1)', ['markets'], [], 'too_short'),
    s('markets not a list', ['markets'], 'travis-tx', 'list_type'),
    s('markets[0] empty (1-100 chars)', ['markets', 0], '', 'string_too_short'),
    s('markets[0] 101 chars (1-100 chars)', ['markets', 0], str(101), 'string_too_long'),
    s('markets[0] of 101 code points (1-100 chars)', ['markets', 0], str(101, '🌵'), 'string_too_long'),
    s('markets[0] not a string', ['markets', 0], 7, 'string_type'),
    missing(['markets']),
    s('must with 51 rules (at most 50)', ['must'], list(51, rule), 'too_long'),
    s('must not a list', ['must'], { field: 'acres' }, 'list_type'),
    s('must[0] not an object', ['must', 0], 'acres >= 50', 'dict_type'),
    s('must[0].field empty (1-100 chars)', ['must', 0, 'field'], '', 'string_too_short'),
    s('must[0].field 101 chars (1-100 chars)', ['must', 0, 'field'], str(101), 'string_too_long'),
    s('must[0].field not a string', ['must', 0, 'field'], ['acres'], 'string_type'),
    missing(['must', 0, 'field']),
    s('must[0].op empty (1-20 chars)', ['must', 0, 'op'], '', 'string_too_short'),
    s('must[0].op 21 chars (1-20 chars)', ['must', 0, 'op'], str(21), 'string_too_long'),
    missing(['must', 0, 'op']),
    missing(['must', 0, 'value']),
    s('must[0].unknown not exclude/review', ['must', 0, 'unknown'], 'ignore', 'literal_error'),
    s('must[0].unknown a boolean', ['must', 0, 'unknown'], true, 'literal_error', {
    }),
    s('preferred with 51 rules (at most 50)', ['preferred'], list(51, preferred), 'too_long'),
    s('preferred[0].field 101 chars', ['preferred', 0, 'field'], str(101), 'string_too_long'),
    s('preferred[0].op empty', ['preferred', 0, 'op'], '', 'string_too_short'),
    s('preferred[0].op 21 chars', ['preferred', 0, 'op'], str(21), 'string_too_long'),
    missing(['preferred', 0, 'value']),
    missing(['preferred', 0, 'weight']),
    s('preferred[0].weight not a number', ['preferred', 0, 'weight'], 'heavy', 'float_parsing'),
    s('preferred[0].weight a list', ['preferred', 0, 'weight'], [3], 'float_type'),
    // Bounded so that every score is finite (docs/decisions.md, "Weights and cutoffs are bounded").
    s('preferred[0].weight 1e307 (at most 1,000,000)', ['preferred', 0, 'weight'], 1e307, 'less_than_equal'),
    s('preferred[0].weight -1000001 (at least -1,000,000)', ['preferred', 0, 'weight'], -1_000_001, 'greater_than_equal'),
    s('verdict_cutoffs.pursue 1e307 (at most 1,000,000)', ['verdict_cutoffs', 'pursue'], 1e307, 'less_than_equal'),
    missing(['verdict_cutoffs']),
    s('verdict_cutoffs not an object', ['verdict_cutoffs'], 70, 'dict_type'),
    missing(['verdict_cutoffs', 'pursue']),
    missing(['verdict_cutoffs', 'monitor']),
    s('verdict_cutoffs.monitor not a number', ['verdict_cutoffs', 'monitor'], 'low', 'float_parsing'),
    s('extra property (additional properties rejected)', ['market'], 'travis-tx', 'extra_forbidden'),
    s('not an object', [], 'markets: travis-tx', 'dict_type'),
  ];
}

export function draftAccepts(endpoint: EndpointKey, at: Loc): AcceptRow[] {
  const rows = rowsFor(endpoint);
  const d = at.join('.');
  const set = (path: Loc, value: unknown) => body([...at, ...path], value);
  const ok = (name: string, changes: Change | Change[]) => rows.ok(name, [withDraft(at), changes].flat());
  return [
    ok(`${d}.markets[0] of 100 chars`, set(['markets', 0], str(100))),
    ok(`${d}.markets[0] of 100 code points (astral)`, set(['markets', 0], str(100, '🌵'))),
    ok(`${d}.must with 50 rules`, set(['must'], list(50, rule))),
    ok(`${d}.preferred with 50 rules`, set(['preferred'], list(50, preferred))),
    ok(`${d}.must[0].field of 100 chars and op of 20`, [set(['must', 0, 'field'], str(100)), set(['must', 0, 'op'], str(20))]),
    ok(`${d}.must[0].unknown null`, set(['must', 0, 'unknown'], null)),
    ok(`${d}.must[0].unknown exclude`, set(['must', 0, 'unknown'], 'exclude')),
    ok(`${d}.must[0].value null (any JSON)`, set(['must', 0, 'value'], null)),
    ok(`${d}.must[0].value an array (any JSON)`, [set(['must', 0, 'op'], 'between'), set(['must', 0, 'value'], [50, 500])]),
    ok(`${d}.must and preferred omitted`, [drop([...at, 'must']), drop([...at, 'preferred'])]),
    ok(`${d}.verdict cutoffs as decimals`, set(['verdict_cutoffs'], { pursue: 72.5, monitor: 40.25 })),
    ok(`${d}.weight and cutoffs at ±1,000,000`, [set(['preferred', 0, 'weight'], -1_000_000), set(['verdict_cutoffs'], { pursue: 1_000_000, monitor: -1_000_000 })]),
  ];
}
