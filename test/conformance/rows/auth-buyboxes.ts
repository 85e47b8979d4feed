import { DRAFT } from '../valid-requests.js';
import { draftAccepts, draftRows } from './draft.js';
import { atPath, body, drop, rowsFor, str, type AcceptRow, type BadRow, type StatusRow } from './helpers.js';

/** Spec "Authentication and session" (open objects, required) with the bodies of D5 and D6. */
const requestLink = rowsFor('POST /v1/auth/request-link');
const verify = rowsFor('POST /v1/auth/verify');

/** Spec "Buy boxes" with the record of D9 (name 1-255 chars, spec a DiscoveryDraft) and D12. */
const create = rowsFor('POST /v1/buyboxes');
const replace = rowsFor('PUT /v1/buyboxes/{name}');
const remove = rowsFor('DELETE /v1/buyboxes/{name}');
const parse = rowsFor('POST /v1/buyboxes/parse');

export const bad: BadRow[] = [
  requestLink.missing(['email']),
  requestLink.set('email not a string', ['email'], 42, 'string_type'),
  requestLink.set('tenant not a string', ['tenant'], 42, 'string_type'),
  verify.missing(['token']),
  verify.set('token not a string', ['token'], 42, 'string_type'),

  create.missing(['name']),
  create.set('name empty (1-255 chars)', ['name'], '', 'string_too_short'),
  create.set('name 256 chars (1-255 chars)', ['name'], str(256), 'string_too_long'),
  create.set('name not a string', ['name'], 7, 'string_type'),
  // Names are one name however typed: invisible and control characters refused (docs/decisions.md).
  create.set('name with a zero-width space', ['name'], 'dc\u200b', 'value_error'),
  create.set('name with a bidi override', ['name'], '\u202edc', 'value_error'),
  create.set('name of spaces only (trimmed, 1-255 chars)', ['name'], '   ', 'string_too_short'),
  replace.bad('path name with a zero-width space', atPath(`/v1/buyboxes/${encodeURIComponent('dc\u200b')}`), ['path', 'name'], 'value_error'),
  create.missing(['spec']),
  ...draftRows('POST /v1/buyboxes', ['spec']),

  replace.bad('path name 256 chars (1-255 chars)', atPath(`/v1/buyboxes/${str(256)}`), ['path', 'name'], 'string_too_long'),
  replace.bad('path name 2000 chars (1-255 chars)', atPath(`/v1/buyboxes/${str(2000)}`), ['path', 'name'], 'string_too_long', {
  }),
  replace.missing(['spec']),
  ...draftRows('PUT /v1/buyboxes/{name}', ['spec']),

  remove.bad('path name 256 chars (1-255 chars)', atPath(`/v1/buyboxes/${str(256)}`), ['path', 'name'], 'string_too_long'),

  parse.missing(['text']),
  parse.set('text not a string', ['text'], ['market: travis-tx'], 'string_type'),
];

export const accept: AcceptRow[] = [
  requestLink.ok('extra property (open object)', body(['utm_source'], 'newsletter')),
  requestLink.ok('tenant omitted', drop(['tenant'])),
  verify.ok('extra property (open object)', body(['client'], { app: 'web' })),
  create.ok('name of 255 chars', body(['name'], str(255))),
  create.ok('description omitted, extra property (open object)', [drop(['description']), body(['color'], 'green')]),
  ...draftAccepts('POST /v1/buyboxes', ['spec']),
  replace.ok('path name of 255 chars', atPath(`/v1/buyboxes/${str(255)}`)),
  replace.ok('path name with spaces and unicode', atPath(`/v1/buyboxes/${encodeURIComponent('Süd Texas 50+ ac')}`)),
  remove.ok('path name of 255 chars', atPath(`/v1/buyboxes/${str(255)}`)),
  parse.ok('extra property (open object)', body(['locale'], 'en-US')),
];

/** D10: an unknown op or a value of the wrong shape for its op is 422 on the rule's loc. */
export const status: StatusRow[] = [
  create.status('D10 unknown rule op', body(['spec'], { ...DRAFT, must: [{ field: 'acres', op: 'approximately', value: 50 }] }), 422),
  create.status('D10 between with a scalar value', body(['spec'], { ...DRAFT, must: [{ field: 'acres', op: 'between', value: 50 }] }), 422),
];
