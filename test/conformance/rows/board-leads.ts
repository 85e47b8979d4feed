import { draftAccepts, draftRows } from './draft.js';
import { body, drop, dropQuery, query, rowsFor, str, type AcceptRow, type BadRow } from './helpers.js';

/** Spec "Pipeline board (version 1)" with the stages of D18. */
const board = rowsFor('GET /v1/pipeline');
const add = rowsFor('POST /v1/pipeline');
const patch = rowsFor('PATCH /v1/pipeline/{item_id}');

/** Spec "Leads, deliveries, properties" with D28 (reveal) and D29 (leads find). */
const find = rowsFor('POST /v1/leads/find');
const reveal = rowsFor('POST /v1/properties/{property_id}/reveal');
const leadRequests = rowsFor('POST /v1/lead-requests');
const leadImport = rowsFor('POST /v1/leads/import');

export const bad: BadRow[] = [
  board.query('archived not a boolean', 'archived', 'maybe', 'bool_parsing'),

  leadRequests.set('count 0 (1-500, D30)', ['count'], 0, 'greater_than_equal'),
  leadRequests.set('count 501', ['count'], 501, 'less_than_equal'),
  leadRequests.set('count not an integer', ['count'], 'ten', 'int_parsing'),
  leadRequests.set('buy_box empty', ['buy_box'], '', 'string_too_short'),
  leadRequests.missing(['buy_box']),
  leadRequests.missing(['count']),
  leadImport.set('no rows (1-10,000, D30)', ['rows'], [], 'too_short'),
  leadImport.set('rows not a list', ['rows'], { apn: 'x' }, 'list_type'),
  leadImport.set('a row not an object', ['rows', 0], 'x', 'dict_type'),
  leadImport.set('lat not a number', ['rows', 0, 'lat'], 'north', 'float_parsing'),
  leadImport.set('add_to_pipeline not a boolean', ['add_to_pipeline'], 'maybe', 'bool_parsing'),
  leadImport.missing(['market']),
  leadImport.missing(['rows']),

  patch.set('stage unknown (state table: 422)', ['stage'], 'on_hold', 'literal_error'),
  patch.set('stage in the wrong case', ['stage'], 'NEW', 'literal_error'),
  patch.set('stage a number', ['stage'], 3, 'literal_error', {
  }),
  patch.set('archived not a boolean', ['archived'], 'maybe', 'bool_parsing'),
  patch.set('archived 2', ['archived'], 2, 'bool_parsing'),
  patch.set('archived a list', ['archived'], [true], 'bool_type'),
  patch.set('notes not a string', ['notes'], 42, 'string_type'),
  patch.set('position -1 (0-based, D18)', ['position'], -1, 'greater_than_equal'),
  patch.set('position not an integer', ['position'], 'first', 'int_parsing'),

  find.query('query limit 2001 (up to 2000)', 'limit', '2001', 'less_than_equal'),
  find.query('query limit not an integer', 'limit', 'lots', 'int_parsing'),
  find.query('query limit 1.5', 'limit', '1.5', 'int_parsing'),
  find.query('query count_only not a boolean', 'count_only', 'maybe', 'bool_parsing'),
  find.set('body count_only not a boolean', ['count_only'], 'maybe', 'bool_parsing'),
  find.set('buy_box not a string', ['buy_box'], 5, 'string_type'),
  find.set('buy_box 256 chars (names are 1-255, D9)', ['buy_box'], str(256), 'string_too_long'),
  ...draftRows('POST /v1/leads/find', ['draft']),

  reveal.missing(['contact']),
  reveal.set('contact not an object', ['contact'], 'Jane Owner', 'dict_type'),
  reveal.missing(['provider']),
  reveal.set('provider not a string', ['provider'], 5, 'string_type'),
  reveal.missing(['cost_usd']),
  reveal.set('cost_usd with 5 decimals (number)', ['cost_usd'], 0.12345, 'decimal_max_places'),
  reveal.set('cost_usd with 5 decimals (string)', ['cost_usd'], '0.12345', 'decimal_max_places'),
  reveal.set('cost_usd not a decimal', ['cost_usd'], 'cheap', 'decimal_parsing'),
  reveal.set('cost_usd a list', ['cost_usd'], [1], 'decimal_type'),
  reveal.set('provider_request_id not a string', ['provider_request_id'], 5, 'string_type'),
];

export const accept: AcceptRow[] = [
  board.ok('archived=true', query('archived', 'true')),
  board.ok('no query', [dropQuery('stage'), dropQuery('archived')]),
  board.ok('stage under_contract', query('stage', 'under_contract')),

  add.ok('extra property (open object)', body(['source'], 'discovery')),

  patch.ok('every known stage: archived', body(['stage'], 'archived')),
  patch.ok('every known stage: closed', body(['stage'], 'closed')),
  patch.ok('archived true with no stage', [drop(['stage']), body(['archived'], true)]),
  patch.ok('notes only, null', [drop(['stage']), drop(['archived']), body(['notes'], null)]),
  patch.ok('extra property (open object)', body(['color'], 'red')),

  find.ok('query limit 2000', query('limit', '2000')),
  find.ok('query limit 0 (the spec gives a maximum only)', query('limit', '0'), {
  }),
  find.ok('count_only in the body only (D29)', [dropQuery('count_only'), body(['count_only'], true)]),
  find.ok('buy_box only, extra property (open object)', [drop(['draft']), body(['sort'], 'score')]),
  ...draftAccepts('POST /v1/leads/find', ['draft']),

  reveal.ok('cost_usd 0', body(['cost_usd'], 0)),
  reveal.ok('cost_usd with 4 decimals', body(['cost_usd'], '12.3456')),
  reveal.ok('provider_request_id omitted, extra property (open object)', [drop(['provider_request_id']), body(['note'], 'x')]),

  leadRequests.ok('arbitrary properties (open object)', body(['anything'], [1, { nested: true }])),
  leadRequests.ok('count 1, note null', [body(['count'], 1), body(['note'], null)]),
  leadRequests.ok('count 500', body(['count'], 500)),
  leadImport.ok('arbitrary properties (open object)', body(['source'], 'csv')),
  leadImport.ok('a row of numbers, lat out of range (reported per row, D30)', body(['rows'], [{ ref: 7, apn: 1234, lat: 95, lon: 0 }])),
  leadImport.ok('buy_box and add_to_pipeline', [body(['buy_box'], 'Data center'), body(['add_to_pipeline'], true)]),
];
