import { body, drop, dropQuery, list, query, rowsFor, str, type AcceptRow, type BadRow } from './helpers.js';

/** Spec "Other internal endpoints": EstimateRequest and the utility-findings query. */
const estimate = rowsFor('POST /v1/internal/hosting-capacity/estimate');
const findings = rowsFor('GET /v1/internal/utility-findings');

/** Catalog spec endpoints with the shapes of docs/design.md D33 (fields), D34 (fetch batch) and D35 (runs, lookup). */
const fields = rowsFor('GET /v1/meta/fields');
const batch = rowsFor('POST /v1/fetch/batch');
const runs = rowsFor('POST /v1/runs');
const lookup = rowsFor('POST /v1/lookup');

const location = (index: number) => ({ lat: (index % 180) - 89.5, lon: (index % 360) - 179.5 });

export const bad: BadRow[] = [
  estimate.missing(['latitude']),
  estimate.set('latitude -90.0001 (-90 to 90)', ['latitude'], -90.0001, 'greater_than_equal'),
  estimate.set('latitude 90.5 (-90 to 90)', ['latitude'], 90.5, 'less_than_equal'),
  estimate.set('latitude not a number', ['latitude'], 'north', 'float_parsing'),
  estimate.set('latitude a list', ['latitude'], [30], 'float_type'),
  estimate.missing(['longitude']),
  estimate.set('longitude -180.5 (-180 to 180)', ['longitude'], -180.5, 'greater_than_equal'),
  estimate.set('longitude 181 (-180 to 180)', ['longitude'], 181, 'less_than_equal'),
  estimate.missing(['state']),
  estimate.set('state of three letters', ['state'], 'TXX', 'string_pattern_mismatch'),
  estimate.set('state with a digit', ['state'], 'T1', 'string_pattern_mismatch'),
  estimate.set('state empty', ['state'], '', 'string_pattern_mismatch'),
  estimate.set('state of non-ASCII letters', ['state'], 'ÀB', 'string_pattern_mismatch'),
  estimate.set('state "Texas"', ['state'], 'Texas', 'string_pattern_mismatch'),
  estimate.set('state not a string', ['state'], 48, 'string_type'),
  estimate.set('utility_key 129 chars (up to 128)', ['utility_key'], str(129), 'string_too_long'),
  estimate.set('utility_name 257 chars (up to 256)', ['utility_name'], str(257), 'string_too_long'),
  estimate.set('candidate_operators with 3 items (at most 2)', ['candidate_operators'], ['ERCOT', 'SPP', 'MISO'], 'too_long'),
  estimate.set('candidate_operators not a list', ['candidate_operators'], 'ERCOT', 'list_type'),
  estimate.set('candidate_operators[0] not a string', ['candidate_operators', 0], 5, 'string_type'),
  estimate.extra(),
  estimate.extra([], 'lat'),

  findings.bad('vintage_id missing (required)', dropQuery('vintage_id'), ['query', 'vintage_id'], 'missing'),
  findings.bad('parcel_key missing (required)', dropQuery('parcel_key'), ['query', 'parcel_key'], 'missing'),
  findings.query('vintage_id 129 chars (max 128)', 'vintage_id', str(129), 'string_too_long'),
  findings.query('parcel_key 257 chars (max 256)', 'parcel_key', str(257), 'string_too_long'),

  batch.missing(['locations']),
  batch.set('1001 locations (at most 1,000)', ['locations'], list(1001, location), 'too_long'),
  batch.set('locations not a list', ['locations'], { lat: 30, lon: -97 }, 'list_type'),
  batch.set('locations[0] not an object', ['locations', 0], '30.2,-97.7', 'dict_type'),
  batch.missing(['locations', 0, 'lat']),
  batch.missing(['locations', 0, 'lon']),
  batch.set('locations[0].lat 90.5', ['locations', 0, 'lat'], 90.5, 'less_than_equal'),
  batch.set('locations[0].lat -91', ['locations', 0, 'lat'], -91, 'greater_than_equal'),
  batch.set('locations[0].lon 180.5', ['locations', 0, 'lon'], 180.5, 'less_than_equal'),
  batch.set('locations[0].lon -181', ['locations', 0, 'lon'], -181, 'greater_than_equal'),
  batch.set('locations[0].lat not a number', ['locations', 0, 'lat'], 'north', 'float_parsing'),
  batch.set('locations[0].id not a string', ['locations', 0, 'id'], 7, 'string_type'),
  batch.set('fields not a list', ['fields'], 'elevation', 'list_type'),
  batch.set('fields[1] not a string', ['fields', 1], 7, 'string_type'),
  batch.set('preset not a string', ['preset'], ['solar_siting'], 'string_type'),
  batch.set('dry_run not a boolean', ['dry_run'], 'maybe', 'bool_parsing'),

  runs.missing(['locations']),
  runs.set('100,001 locations (up to 100,000)', ['locations'], list(100_001, location), 'too_long'),
  runs.set('locations[1].lat 91', ['locations', 1, 'lat'], 91, 'less_than_equal'),

  lookup.set('lat 91', ['lat'], 91, 'less_than_equal'),
  lookup.set('lon -181', ['lon'], -181, 'greater_than_equal'),
  lookup.set('include_parcel not a boolean', ['include_parcel'], 'maybe', 'bool_parsing'),
  lookup.set('address not a string', ['address'], 100, 'string_type'),
];

export const accept: AcceptRow[] = [
  estimate.ok('latitude -90 and longitude -180', [body(['latitude'], -90), body(['longitude'], -180)]),
  estimate.ok('latitude 90 and longitude 180', [body(['latitude'], 90), body(['longitude'], 180)]),
  estimate.ok('state in lower case', body(['state'], 'tx')),
  estimate.ok('utility_key of 128 chars, utility_name of 256', [body(['utility_key'], str(128)), body(['utility_name'], str(256))]),
  estimate.ok('candidate_operators with 2 items', body(['candidate_operators'], ['ERCOT', 'SPP'])),
  estimate.ok('utility_key and utility_name null', [body(['utility_key'], null), body(['utility_name'], null)]),
  estimate.ok('utility_key and utility_name empty (no minimum)', [body(['utility_key'], ''), body(['utility_name'], '')]),
  estimate.ok('optional fields omitted', [drop(['utility_key']), drop(['utility_name']), drop(['candidate_operators'])]),

  findings.ok('vintage_id of 128 chars, parcel_key of 256', [query('vintage_id', str(128)), query('parcel_key', str(256))]),
  findings.ok('vintage_id and parcel_key empty (no minimum)', [query('vintage_id', ''), query('parcel_key', '')]),

  fields.ok('filters preset and name', [query('preset', 'solar_siting'), query('name', 'elevation')]),
  fields.ok('no filter', dropQuery('layer')),

  batch.ok('1,000 locations', body(['locations'], list(1000, location))),
  batch.ok('a preset instead of fields', [drop(['fields']), body(['preset'], 'terrain')]),
  batch.ok('lat 90, lon -180, no id', body(['locations', 0], { lat: 90, lon: -180 })),

  runs.ok('100,000 locations', body(['locations'], list(100_000, location))),

  lookup.ok('a point instead of an address', [drop(['address']), body(['lat'], 30.2672), body(['lon'], -97.7431)]),
];
