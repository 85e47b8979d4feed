import { atPath, body, drop, dropQuery, list, query, rowsFor, str, type BadRow } from './helpers.js';

/** D1: every error of a request is reported, across parts (path, query, body) and nesting levels. */
export const multi: BadRow[] = [
  rowsFor('POST /v2/discovery/query').multi(
    'nine errors in the body and its draft',
    body([], {
      buy_box: '',
      limit: 0,
      cursor: str(4097),
      sort: 'score',
      draft: { markets: [], must: [{ field: '', op: 'gte' }], verdict_cutoffs: { pursue: 'high' } },
    }),
    [
      [['body', 'buy_box'], 'string_too_short'],
      [['body', 'limit'], 'greater_than_equal'],
      [['body', 'cursor'], 'string_too_long'],
      [['body', 'sort'], 'extra_forbidden'],
      [['body', 'draft', 'markets'], 'too_short'],
      [['body', 'draft', 'must', 0, 'field'], 'string_too_short'],
      [['body', 'draft', 'must', 0, 'value'], 'missing'],
      [['body', 'draft', 'verdict_cutoffs', 'pursue'], 'float_parsing'],
      [['body', 'draft', 'verdict_cutoffs', 'monitor'], 'missing'],
    ],
  ),
  rowsFor('POST /v1/internal/diligence/jobs/{job_id}/steps/{step}/complete').multi(
    'five errors in a step result',
    [body(['status'], 'done'), drop(['provider']), body(['citations'], list(101, () => ({}))), body(['cost_usd'], '1.23456'), body(['claim_token'], 'nope')],
    [
      [['body', 'status'], 'literal_error'],
      [['body', 'provider'], 'missing'],
      [['body', 'citations'], 'too_long'],
      [['body', 'cost_usd'], 'decimal_max_places'],
      [['body', 'claim_token'], 'uuid_parsing'],
    ],
  ),
  rowsFor('POST /v1/internal/hosting-capacity/estimate').multi(
    'five errors in an estimate',
    [body(['latitude'], 91), body(['longitude'], -181), body(['state'], 'Texas'), body(['candidate_operators'], ['A', 'B', 'C']), body(['utility_name'], str(257))],
    [
      [['body', 'latitude'], 'less_than_equal'],
      [['body', 'longitude'], 'greater_than_equal'],
      [['body', 'state'], 'string_pattern_mismatch'],
      [['body', 'candidate_operators'], 'too_long'],
      [['body', 'utility_name'], 'string_too_long'],
    ],
  ),
  rowsFor('POST /v1/internal/diligence/jobs/{job_id}/claim').multi(
    'three errors in a claim',
    [body(['worker_id'], ''), body(['lease_seconds'], 59), body(['priority'], 'high')],
    [
      [['body', 'worker_id'], 'string_too_short'],
      [['body', 'lease_seconds'], 'greater_than_equal'],
      [['body', 'priority'], 'extra_forbidden'],
    ],
  ),
  rowsFor('GET /v1/internal/utility-findings').multi('both required query parameters missing', [dropQuery('vintage_id'), dropQuery('parcel_key')], [
    [['query', 'vintage_id'], 'missing'],
    [['query', 'parcel_key'], 'missing'],
  ]),
  rowsFor('GET /v1/internal/diligence/jobs').multi('limit and offset both out of range', [query('limit', '0'), query('offset', '100001')], [
    [['query', 'limit'], 'greater_than_equal'],
    [['query', 'offset'], 'less_than_equal'],
  ]),
  rowsFor('PUT /v1/buyboxes/{name}').multi(
    'path and body errors together',
    [atPath(`/v1/buyboxes/${str(256)}`), body(['spec', 'markets'], ['a', 'b']), drop(['spec', 'verdict_cutoffs'])],
    [
      [['path', 'name'], 'string_too_long'],
      [['body', 'spec', 'markets'], 'too_long'],
      [['body', 'spec', 'verdict_cutoffs'], 'missing'],
    ],
  ),
  rowsFor('POST /v1/leads/find').multi(
    'query and body errors together',
    [query('limit', '2001'), query('count_only', 'maybe'), body(['draft', 'markets'], [])],
    [
      [['query', 'limit'], 'less_than_equal'],
      [['query', 'count_only'], 'bool_parsing'],
      [['body', 'draft', 'markets'], 'too_short'],
    ],
  ),
  rowsFor('POST /v1/internal/diligence/jobs/{job_id}/authorize').multi('an empty object: every required field', body([], {}), [
    [['body', 'max_cost_usd'], 'missing'],
    [['body', 'note'], 'missing'],
  ]),
  rowsFor('POST /v1/fetch/batch').multi(
    'errors in several locations',
    body(['locations'], [{ lat: 91, lon: 0 }, { lat: 0 }, { lat: 0, lon: 0, id: 5 }]),
    [
      [['body', 'locations', 0, 'lat'], 'less_than_equal'],
      [['body', 'locations', 1, 'lon'], 'missing'],
      [['body', 'locations', 2, 'id'], 'string_type'],
    ],
  ),
];
