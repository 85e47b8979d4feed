import { DRAFT, QUERY_HASH, UUID_B } from '../valid-requests.js';
import { draftAccepts, draftRows } from './draft.js';
import { body, drop, rowsFor, str, type AcceptRow, type BadRow, type StatusRow } from './helpers.js';

/** Spec "Discovery (version 2)": the four request tables and the Limits lines. */
const query = rowsFor('POST /v2/discovery/query');
const resolve = rowsFor('POST /v2/parcels/resolve');
const promote = rowsFor('POST /v2/pipeline');
const direct = rowsFor('POST /v2/pipeline/direct');

export const bad: BadRow[] = [
  query.missing(['buy_box']),
  query.set('buy_box empty (1-255)', ['buy_box'], '', 'string_too_short'),
  query.set('buy_box 256 chars (1-255)', ['buy_box'], str(256), 'string_too_long'),
  query.set('buy_box not a string', ['buy_box'], 12, 'string_type'),
  query.set('limit 0 (1-200)', ['limit'], 0, 'greater_than_equal'),
  query.set('limit 201 (1-200)', ['limit'], 201, 'less_than_equal'),
  query.set('limit -5 (1-200)', ['limit'], -5, 'greater_than_equal'),
  query.set('limit 2.5 (integer)', ['limit'], 2.5, 'int_from_float'),
  query.set('limit "many" (integer)', ['limit'], 'many', 'int_parsing'),
  query.set('limit a list (integer)', ['limit'], [50], 'int_type'),
  query.set('cursor 4097 chars (at most 4096)', ['cursor'], str(4097), 'string_too_long'),
  query.set('cursor not a string', ['cursor'], 17, 'string_type'),
  query.extra(),
  query.extra([], 'market'),
  ...draftRows('POST /v2/discovery/query', ['draft']),

  resolve.missing(['market']),
  resolve.set('market empty (1-100)', ['market'], '', 'string_too_short'),
  resolve.set('market 101 chars (1-100)', ['market'], str(101), 'string_too_long'),
  resolve.set('market not a string', ['market'], ['travis-tx'], 'string_type'),
  resolve.set('apn 256 chars (up to 255)', ['apn'], str(256), 'string_too_long'),
  resolve.set('apn not a string', ['apn'], 12345, 'string_type'),
  resolve.set('address 501 chars (up to 500)', ['address'], str(501), 'string_too_long'),
  resolve.set('address not a string', ['address'], { street: '100 Congress' }, 'string_type'),
  resolve.extra(),

  promote.missing(['parcel_key']),
  promote.set('parcel_key empty (1-500)', ['parcel_key'], '', 'string_too_short'),
  promote.set('parcel_key 501 chars (1-500)', ['parcel_key'], str(501), 'string_too_long'),
  promote.missing(['buy_box']),
  promote.set('buy_box empty (1-255)', ['buy_box'], '', 'string_too_short'),
  promote.set('buy_box 256 chars (1-255)', ['buy_box'], str(256), 'string_too_long'),
  promote.missing(['query_hash']),
  promote.set('query_hash 63 chars (exactly 64)', ['query_hash'], QUERY_HASH.slice(1), 'string_too_short'),
  promote.set('query_hash 65 chars (exactly 64)', ['query_hash'], `${QUERY_HASH}0`, 'string_too_long'),
  promote.set('query_hash empty (exactly 64)', ['query_hash'], '', 'string_too_short'),
  promote.set('query_hash not a string', ['query_hash'], 1234, 'string_type'),
  promote.extra(),
  promote.extra([], 'vintage_id'),
  ...draftRows('POST /v2/pipeline', ['draft']),

  direct.missing(['parcel_key']),
  direct.set('parcel_key empty (1-500)', ['parcel_key'], '', 'string_too_short'),
  direct.set('parcel_key 501 chars (1-500)', ['parcel_key'], str(501), 'string_too_long'),
  direct.missing(['buy_box']),
  direct.set('buy_box empty (1-255)', ['buy_box'], '', 'string_too_short'),
  direct.set('buy_box 256 chars (1-255)', ['buy_box'], str(256), 'string_too_long'),
  direct.set('vintage_id not a uuid', ['vintage_id'], 'not-a-uuid', 'uuid_parsing'),
  direct.set('vintage_id a uuid with a bad digit', ['vintage_id'], `${UUID_B.slice(0, -1)}g`, 'uuid_parsing'),
  direct.set('vintage_id a number', ['vintage_id'], 42, 'uuid_type'),
  direct.extra(),
  direct.extra([], 'query_hash'),
  direct.extra([], 'draft'),
];

export const accept: AcceptRow[] = [
  query.ok('limit 1', body(['limit'], 1)),
  query.ok('limit 200', body(['limit'], 200)),
  query.ok('limit "200" (lax integer)', body(['limit'], '200')),
  query.ok('cursor of 4096 chars', body(['cursor'], str(4096))),
  query.ok('cursor empty (no minimum)', body(['cursor'], '')),
  query.ok('buy_box of 255 chars', body(['buy_box'], str(255))),
  query.ok('draft null, limit and cursor omitted', [body(['draft'], null), drop(['limit']), drop(['cursor'])]),
  ...draftAccepts('POST /v2/discovery/query', ['draft']),

  resolve.ok('market of 100 chars', body(['market'], str(100))),
  resolve.ok('apn of 255 chars', body(['apn'], str(255))),
  resolve.ok('apn empty and address empty (no minimum)', [body(['apn'], ''), body(['address'], '')]),
  resolve.ok('address of 500 chars, apn null', [body(['apn'], null), body(['address'], str(500))]),
  resolve.ok('address only', [drop(['apn']), body(['address'], '100 Congress Ave, Austin, TX')]),

  promote.ok('parcel_key of 500 chars', body(['parcel_key'], str(500))),
  promote.ok('buy_box of 255 chars', body(['buy_box'], str(255))),
  promote.ok('with a draft', body(['draft'], DRAFT)),
  promote.ok('draft omitted', drop(['draft'])),

  direct.ok('parcel_key of 500 chars, buy_box of 255', [body(['parcel_key'], str(500)), body(['buy_box'], str(255))]),
  direct.ok('vintage_id null', body(['vintage_id'], null)),
  direct.ok('vintage_id omitted', drop(['vintage_id'])),
  direct.ok('vintage_id in upper case', body(['vintage_id'], UUID_B.toUpperCase())),
];

/** D17: neither apn nor address is 422. */
export const status: StatusRow[] = [resolve.status('D17 neither apn nor address', [drop(['apn']), drop(['address'])], 422)];
