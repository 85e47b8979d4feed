import { UUID_B } from '../valid-requests.js';
import { body, drop, dropQuery, list, query, rowsFor, str, type AcceptRow, type BadRow } from './helpers.js';

/** Spec "Diligence (internal)": the request-shape table and the Limits lines; money per D24. */
const jobs = rowsFor('GET /v1/internal/diligence/jobs');
const spend = rowsFor('GET /v1/internal/diligence/spend');
const authorize = rowsFor('POST /v1/internal/diligence/jobs/{job_id}/authorize');
const claim = rowsFor('POST /v1/internal/diligence/jobs/{job_id}/claim');
const start = rowsFor('POST /v1/internal/diligence/jobs/{job_id}/steps/{step}/start');
const complete = rowsFor('POST /v1/internal/diligence/jobs/{job_id}/steps/{step}/complete');
const fail = rowsFor('POST /v1/internal/diligence/jobs/{job_id}/steps/{step}/fail');
const reconcile = rowsFor('POST /v1/internal/diligence/jobs/{job_id}/steps/{step}/reconcile');

const citation = (index: number) => ({ url: `https://example.com/${index}` });

/** Rows shared by CompleteRequest and ReconcileRequest ("as in CompleteRequest"). */
function resultRows(r: ReturnType<typeof rowsFor>): BadRow[] {
  return [
    r.missing(['status']),
    r.set('status not ready/partial/needs_review', ['status'], 'done', 'literal_error'),
    r.set('status failed (not a completion status)', ['status'], 'failed', 'literal_error'),
    r.missing(['provider']),
    r.set('provider empty (1-128)', ['provider'], '', 'string_too_short'),
    r.set('provider 129 chars (1-128)', ['provider'], str(129), 'string_too_long'),
    r.set('provider_version empty (1-128)', ['provider_version'], '', 'string_too_short'),
    r.set('provider_version 129 chars (1-128)', ['provider_version'], str(129), 'string_too_long'),
    r.set('provider_request_id 257 chars (up to 256)', ['provider_request_id'], str(257), 'string_too_long'),
    r.set('data a list (open object)', ['data'], [1, 2], 'dict_type'),
    r.set('data a string (open object)', ['data'], 'ok', 'dict_type'),
    r.set('citations with 101 items (at most 100)', ['citations'], list(101, citation), 'too_long'),
    r.set('citations not a list', ['citations'], 'https://example.com', 'list_type'),
    r.set('citations[0] not an object', ['citations', 0], 'https://example.com', 'dict_type'),
    r.set('cost_usd negative (at least 0)', ['cost_usd'], -0.01, 'greater_than_equal'),
    r.set('cost_usd "-1" (at least 0)', ['cost_usd'], '-1', 'greater_than_equal'),
    r.set('cost_usd with 5 decimals (number)', ['cost_usd'], 0.00001, 'decimal_max_places'),
    r.set('cost_usd with 5 decimals (string)', ['cost_usd'], '1.23456', 'decimal_max_places'),
    r.set('cost_usd not a decimal', ['cost_usd'], 'free', 'decimal_parsing'),
    r.set('cost_usd a boolean', ['cost_usd'], true, 'decimal_type'),
    r.extra(),
  ];
}

function resultAccepts(r: ReturnType<typeof rowsFor>): AcceptRow[] {
  return [
    r.ok('status needs_review', body(['status'], 'needs_review')),
    r.ok('provider of 128 chars, provider_version of 128', [body(['provider'], str(128)), body(['provider_version'], str(128))]),
    r.ok('provider_request_id of 256 chars', body(['provider_request_id'], str(256))),
    r.ok('provider_request_id empty (no minimum)', body(['provider_request_id'], '')),
    r.ok('cost_usd 1.5e21 (a number with no decimals, no maximum)', body(['cost_usd'], 1.5e21)),
    r.ok('provider_version and provider_request_id null', [body(['provider_version'], null), body(['provider_request_id'], null)]),
    r.ok('citations with 100 items', body(['citations'], list(100, citation))),
    r.ok('cost_usd 0', body(['cost_usd'], 0)),
    r.ok('cost_usd "0.0000"', body(['cost_usd'], '0.0000')),
    r.ok('cost_usd with 4 decimals', body(['cost_usd'], '12.3456')),
    r.ok('optional fields omitted', [drop(['provider_version']), drop(['provider_request_id']), drop(['data']), drop(['citations']), drop(['cost_usd'])]),
  ];
}

export const bad: BadRow[] = [
  jobs.query('limit 0 (1-100)', 'limit', '0', 'greater_than_equal'),
  jobs.query('limit 101 (1-100)', 'limit', '101', 'less_than_equal'),
  jobs.query('limit not an integer', 'limit', 'ten', 'int_parsing'),
  jobs.query('limit 2.5', 'limit', '2.5', 'int_parsing'),
  jobs.query('offset -1 (0-100000)', 'offset', '-1', 'greater_than_equal'),
  jobs.query('offset 100001 (0-100000)', 'offset', '100001', 'less_than_equal'),
  jobs.query('offset not an integer', 'offset', 'start', 'int_parsing'),
  jobs.query('status not a job status (as the board\'s stage filter)', 'status', 'done', 'literal_error'),

  spend.query('day 2024-02-30 (no such day)', 'day', '2024-02-30', 'date_from_datetime_parsing'),
  spend.query('day 2023-02-29 (not a leap year)', 'day', '2023-02-29', 'date_from_datetime_parsing'),
  spend.query('day 2024-13-01', 'day', '2024-13-01', 'date_from_datetime_parsing'),
  spend.query('day 2024-1-5 (not YYYY-MM-DD)', 'day', '2024-1-5', 'date_from_datetime_parsing'),
  spend.query('day "yesterday"', 'day', 'yesterday', 'date_from_datetime_parsing'),

  authorize.missing(['max_cost_usd']),
  authorize.set('max_cost_usd 0 (above 0)', ['max_cost_usd'], 0, 'greater_than'),
  authorize.set('max_cost_usd "0" (above 0)', ['max_cost_usd'], '0', 'greater_than'),
  authorize.set('max_cost_usd -1 (above 0)', ['max_cost_usd'], -1, 'greater_than'),
  authorize.set('max_cost_usd 100.0001 (at most 100)', ['max_cost_usd'], 100.0001, 'less_than_equal'),
  authorize.set('max_cost_usd "100.0001" (at most 100)', ['max_cost_usd'], '100.0001', 'less_than_equal'),
  authorize.set('max_cost_usd "1000" (at most 100)', ['max_cost_usd'], '1000', 'less_than_equal'),
  authorize.set('max_cost_usd 1.5e25 (at most 100)', ['max_cost_usd'], 1.5e25, 'less_than_equal'),
  authorize.set('max_cost_usd 1.00001 (4 decimals, number)', ['max_cost_usd'], 1.00001, 'decimal_max_places'),
  authorize.set('max_cost_usd "1.00001" (4 decimals, string)', ['max_cost_usd'], '1.00001', 'decimal_max_places'),
  authorize.set('max_cost_usd 0.00001 (4 decimals)', ['max_cost_usd'], 0.00001, 'decimal_max_places'),
  authorize.set('max_cost_usd not a decimal', ['max_cost_usd'], 'ten dollars', 'decimal_parsing'),
  authorize.set('max_cost_usd a boolean', ['max_cost_usd'], true, 'decimal_type'),
  authorize.missing(['note']),
  authorize.set('note empty (1-500)', ['note'], '', 'string_too_short'),
  authorize.set('note 501 chars (1-500)', ['note'], str(501), 'string_too_long'),
  authorize.set('note not a string', ['note'], 5, 'string_type'),
  authorize.extra(),

  claim.missing(['worker_id']),
  claim.set('worker_id empty (1-128)', ['worker_id'], '', 'string_too_short'),
  claim.set('worker_id 129 chars (1-128)', ['worker_id'], str(129), 'string_too_long'),
  claim.set('worker_id not a string', ['worker_id'], 7, 'string_type'),
  claim.set('lease_seconds 59 (60-3600)', ['lease_seconds'], 59, 'greater_than_equal'),
  claim.set('lease_seconds 3601 (60-3600)', ['lease_seconds'], 3601, 'less_than_equal'),
  claim.set('lease_seconds 60.5 (integer)', ['lease_seconds'], 60.5, 'int_from_float'),
  claim.set('lease_seconds "sixty" (integer)', ['lease_seconds'], 'sixty', 'int_parsing'),
  claim.set('lease_seconds a list', ['lease_seconds'], [600], 'int_type'),
  claim.extra(),

  start.missing(['claim_token']),
  start.set('claim_token not a uuid', ['claim_token'], 'token-1', 'uuid_parsing'),
  start.set('claim_token a uuid too short', ['claim_token'], UUID_B.slice(0, -1), 'uuid_parsing'),
  start.set('claim_token a number', ['claim_token'], 1234, 'uuid_type'),
  start.extra(),

  ...resultRows(complete),
  complete.missing(['claim_token']),
  complete.set('claim_token not a uuid', ['claim_token'], 'token-1', 'uuid_parsing'),

  fail.missing(['claim_token']),
  fail.set('claim_token not a uuid', ['claim_token'], 'token-1', 'uuid_parsing'),
  fail.missing(['code']),
  fail.set('code empty (1-128)', ['code'], '', 'string_too_short'),
  fail.set('code 129 chars (1-128)', ['code'], str(129), 'string_too_long'),
  fail.missing(['message']),
  fail.set('message empty (1-2000)', ['message'], '', 'string_too_short'),
  fail.set('message 2001 chars (1-2000)', ['message'], str(2001), 'string_too_long'),
  fail.set('retryable not a boolean', ['retryable'], 'maybe', 'bool_parsing'),
  fail.set('retryable 2', ['retryable'], 2, 'bool_parsing'),
  fail.set('retryable an object', ['retryable'], {}, 'bool_type'),
  fail.extra(),

  ...resultRows(reconcile),
  reconcile.missing(['confirmed_no_retry']),
  reconcile.set('confirmed_no_retry false (must be true)', ['confirmed_no_retry'], false, 'literal_error'),
  reconcile.set('confirmed_no_retry "true" (a string, must be true)', ['confirmed_no_retry'], 'true', 'literal_error', {
  }),
  reconcile.set('confirmed_no_retry null', ['confirmed_no_retry'], null, 'literal_error', {
  }),
  reconcile.extra([], 'claim_token'),
];

export const accept: AcceptRow[] = [
  jobs.ok('limit 1, offset 0', [query('limit', '1'), query('offset', '0')]),
  jobs.ok('limit 100, offset 100000', [query('limit', '100'), query('offset', '100000')]),
  jobs.ok('no query (defaults)', [dropQuery('status'), dropQuery('limit'), dropQuery('offset')]),
  jobs.ok('status running', query('status', 'running')),

  spend.ok('day 2024-02-29 (leap day)', query('day', '2024-02-29')),
  spend.ok('day omitted', dropQuery('day')),

  authorize.ok('max_cost_usd 100 (number)', body(['max_cost_usd'], 100)),
  authorize.ok('max_cost_usd "100"', body(['max_cost_usd'], '100')),
  authorize.ok('max_cost_usd "100.0000"', body(['max_cost_usd'], '100.0000')),
  authorize.ok('max_cost_usd 0.0001 (number)', body(['max_cost_usd'], 0.0001)),
  authorize.ok('max_cost_usd "0.0001"', body(['max_cost_usd'], '0.0001')),
  authorize.ok('note of 500 chars', body(['note'], str(500))),

  claim.ok('lease_seconds 60', body(['lease_seconds'], 60)),
  claim.ok('lease_seconds 3600', body(['lease_seconds'], 3600)),
  claim.ok('lease_seconds omitted, worker_id of 128 chars', [drop(['lease_seconds']), body(['worker_id'], str(128))]),

  start.ok('claim_token in upper case', body(['claim_token'], UUID_B.toUpperCase())),

  ...resultAccepts(complete),
  fail.ok('code of 128 chars, message of 2000', [body(['code'], str(128)), body(['message'], str(2000))]),
  fail.ok('retryable omitted', drop(['retryable'])),
  ...resultAccepts(reconcile),
];
