import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MODES, startTestStack, type HttpResponse, type TestStack } from '@landscreen/testing';
import { ACCEPT_ROWS, BAD_ROWS, MULTI_ROWS, STATUS_ROWS, type BadRow, type Expected } from './rows/index.js';
import { arbitraryRequest } from './fuzz.js';
import { BODY_ENDPOINTS, ENDPOINTS, REQUIRED_BODY_ENDPOINTS, SERVICE_TOKEN, SESSION_HEADERS, valid, type EndpointKey, type Req } from './valid-requests.js';

/**
 * Request validation against the spec's request tables and Limits (D1): every bad input answers 422
 * with the pydantic-v2 body, naming the exact loc and type, and nothing else; every valid request
 * (and every value at a limit's edge) passes validation.
 */

const send = (app: TestStack, req: Req) =>
  app.request(req.method, req.path, { body: req.body, rawBody: req.rawBody, headers: req.headers, query: req.query });

const show = (response: HttpResponse) => `${response.status} ${JSON.stringify(response.body).slice(0, 1500)}`;

/** The D1 body: `detail` is a list of items, each with loc (strings and integers), msg and type. */
function expectValidationBody(response: HttpResponse) {
  expect(response.status, show(response)).toBe(422);
  expect(Array.isArray(response.body?.detail), show(response)).toBe(true);
  expect(response.body.detail.length).toBeGreaterThan(0);
  for (const item of response.body.detail) {
    expect(Array.isArray(item.loc), show(response)).toBe(true);
    expect(item.loc.every((part: unknown) => typeof part === 'string' || Number.isInteger(part))).toBe(true);
    expect(['body', 'query', 'path', 'header']).toContain(item.loc[0]);
    expect(typeof item.msg).toBe('string');
    expect(typeof item.type).toBe('string');
    if (item.ctx !== undefined) expect(typeof item.ctx === 'object' && item.ctx !== null && !Array.isArray(item.ctx)).toBe(true);
  }
  return (response.body.detail as Expected[]).map(({ loc, type }) => ({ loc, type }));
}

const byLoc = (items: Expected[]) => [...items].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

function expectErrors(response: HttpResponse, expected: Expected[], only: boolean) {
  const reported = expectValidationBody(response);
  if (only) expect(byLoc(reported)).toEqual(byLoc(expected));
  else for (const item of expected) expect(reported).toContainEqual(item);
}

/** Anything but a validation failure or a fault: 501 (service not built), 2xx, or a D2 4xx. */
function expectPassesValidation(response: HttpResponse) {
  if (response.status === 422) {
    // The request schema accepted it; only a service's own rule (D10 on a rule's field, op or
    // value, D17's "apn or address", a cost too large to store) may still refuse it.
    for (const item of response.body.detail) expect(isServiceRuleIssue(item), show(response)).toBe(true);
    return;
  }
  expect(response.status === 501 || response.status < 500, show(response)).toBe(true);
}

function isServiceRuleIssue(item: { loc: (string | number)[]; type: string }): boolean {
  const last = item.loc.at(-1);
  // The spec gives cost_usd no maximum; the diligence service refuses what numeric(12,4) cannot hold.
  if (item.loc.join('.') === 'body.cost_usd') return item.type === 'less_than_equal';
  const inRule = item.loc.includes('must') || item.loc.includes('preferred');
  if (inRule && ['field', 'op', 'value'].includes(String(last))) return ['value_error', 'literal_error'].includes(item.type);
  return item.loc.length === 1 && item.loc[0] === 'body' && item.type === 'value_error';
}

const rowName = (row: { endpoint: string; name: string }) => `${row.endpoint} › ${row.name}`;

/**
 * One test per row. Rows where the gateway is known to disagree with the spec run as expected
 * failures (`it.fails`), named with the disagreement: they turn red once the gateway is fixed, so
 * that the row's `disagreement` can be removed.
 */
function table<T extends { disagreement?: string }>(rows: T[], name: (row: T) => string, check: (row: T) => Promise<void>) {
  const agree = rows.filter((row) => !row.disagreement);
  const disagree = rows.filter((row) => row.disagreement);
  if (agree.length > 0) it.each(agree.map((row) => [name(row), row] as const))('%s', (_name, row) => check(row));
  if (disagree.length > 0) {
    it.fails.each(disagree.map((row) => [`${name(row)} [gateway disagrees: ${row.disagreement}]`, row] as const))('%s', (_name, row) =>
      check(row),
    );
  }
}

/** The D2 body: a human sentence and a snake_case code. */
function expectErrorBody(response: HttpResponse) {
  expect(typeof response.body?.detail, show(response)).toBe('string');
  expect(typeof response.body?.code, show(response)).toBe('string');
}

/** D2: never 500; a 422 has the D1 body, any other 4xx the `{"detail": <sentence>, "code"}` body. */
function expectNoFault(response: HttpResponse) {
  const { status } = response;
  expect((status >= 200 && status < 300) || (status >= 400 && status < 500) || status === 501, show(response)).toBe(true);
  if (status === 422) expectValidationBody(response);
  else if (status >= 400) expectErrorBody(response);
}

/** Errors raised by the HTTP layer before any route runs: D2 still wants `{"detail", "code"}`. */
const OUTSIDE_ROUTES: { name: string; req: Req; disagreement?: string }[] = [
  { name: 'an unknown path', req: { method: 'GET', path: '/v1/no-such-thing' } },
  { name: 'an unknown method on a known path', req: { method: 'PATCH', path: '/v1/buyboxes' } },
  {
    name: 'a body over the size limit',
    req: { method: 'POST', path: '/v2/parcels/resolve', rawBody: JSON.stringify({ market: 'x'.repeat(17 * 1024 * 1024) }) },
  },
  {
    name: 'a bad percent-escape in a path parameter',
    req: { method: 'GET', path: '/v1/runs/%zz' },
  },
  {
    name: 'a path parameter over 1,024 characters',
    req: { method: 'GET', path: `/v1/properties/${'x'.repeat(1100)}` },
  },
  {
    name: 'headers over the size limit',
    req: { method: 'GET', path: '/v1/me', headers: { 'x-tenant': 'x'.repeat(20_000) } },
  },
];

/** Runs per endpoint of the "no input answers 500" property (raise CONFORMANCE_FUZZ_RUNS to search longer). */
const FUZZ_RUNS = Number(process.env.CONFORMANCE_FUZZ_RUNS ?? 50);

/**
 * Malformed bodies, with the position of the error: where the parser stopped, as Python's json
 * module (FastAPI) reports it. The third column marks positions the gateway is known to get wrong.
 */
const MALFORMED: { text: string; position: number; disagreement?: string }[] = [
  { text: '{"a": }', position: 6 },
  { text: '{"a":', position: 5 },
  { text: '{', position: 1 },
  { text: 'not json', position: 0 },
  { text: '{"a":1,}', position: 7 },
  { text: '[1,2', position: 4 },
  { text: '{"a" 1}', position: 5 },
  { text: '{"a":1}}', position: 7 },
];

describe.each(DATABASE_MODES)('request validation conformance on %s', (mode) => {
  let app: TestStack;
  beforeAll(async () => {
    app = await startTestStack(mode);
    // The tenant of the dev session, and its service token (authentication comes before validation).
    expect((await app.get('/v1/me', { headers: SESSION_HEADERS })).status).toBe(200);
    await sql`
      insert into auth.service_tokens (id, tenant_id, name, secret_digest)
      select ${SERVICE_TOKEN.id}::uuid, id, 'conformance', ${createHash('sha256').update(SERVICE_TOKEN.secret).digest()}
      from auth.tenants where slug = 'conformance'`.execute(app.stack.database.db);
  });
  afterAll(() => app?.close());

  describe('the valid base request of every endpoint passes validation', () => {
    it.each(ENDPOINTS)('%s', async (endpoint) => {
      expectPassesValidation(await send(app, valid(endpoint)));
    });
  });

  describe('bad inputs from the request tables and Limits: 422 with exactly that loc and type', () => {
    table(BAD_ROWS, rowName, async (row: BadRow) => expectErrors(await send(app, row.request), row.expected, row.only));
  });

  describe('error items carry input and ctx as pydantic v2 does (D1)', () => {
    it.each([
      ['the example of D1: limit 500', 'POST /v2/discovery/query', ['limit'], 500, { type: 'less_than_equal', input: 500, ctx: { le: 200 } }],
      ['5 decimals', 'POST /v1/internal/diligence/jobs/{job_id}/authorize', ['max_cost_usd'], '1.00001', { type: 'decimal_max_places', input: '1.00001', ctx: { decimal_places: 4 } }],
      ['a string too long', 'POST /v2/pipeline', ['buy_box'], 'x'.repeat(256), { type: 'string_too_long', input: 'x'.repeat(256), ctx: { max_length: 255 } }],
      ['a list too long', 'POST /v2/discovery/query', ['draft', 'markets'], ['a', 'b'], { type: 'too_long', input: ['a', 'b'], ctx: { field_type: 'List', max_length: 1, actual_length: 2 } }],
    ] as const)('%s', async (_name, endpoint, path, value, expected) => {
      const req = valid(endpoint);
      let node: any = req.body;
      for (const key of path.slice(0, -1)) node = node[key];
      node[path.at(-1)!] = value;
      const response = await send(app, req);
      expectValidationBody(response);
      expect(response.body.detail).toEqual([{ loc: ['body', ...path], msg: expect.any(String), ...expected }]);
    });
  });

  describe('several errors in one request are all reported', () => {
    table(MULTI_ROWS, rowName, async (row: BadRow) => expectErrors(await send(app, row.request), row.expected, row.only));
  });

  describe('values at the edge of a limit, and extras on open objects, pass validation', () => {
    table(ACCEPT_ROWS, rowName, async (row) => expectPassesValidation(await send(app, row.request)));
  });

  describe('rules beyond a field\'s schema that docs/design.md sends to 422', () => {
    table(STATUS_ROWS, rowName, async (row) => {
      const response = await send(app, row.request);
      expect(response.status, show(response)).toBe(row.status);
    });
  });

  describe('bodies that are not a JSON object', () => {
    const bodyless = (endpoint: EndpointKey): Req => {
      const { body: _body, ...req } = valid(endpoint);
      return req;
    };

    it.each(BODY_ENDPOINTS)('%s: malformed JSON is 422 json_invalid at ["body", <position>]', async (endpoint) => {
      for (const { text } of MALFORMED) {
        const response = await send(app, { ...bodyless(endpoint), rawBody: text });
        const [error, ...others] = expectValidationBody(response);
        expect(others, `${text} → ${show(response)}`).toEqual([]);
        expect(error!.type).toBe('json_invalid');
        expect(error!.loc).toHaveLength(2);
        expect(error!.loc[0]).toBe('body');
        expect(Number.isInteger(error!.loc[1]), `${text} → ${show(response)}`).toBe(true);
      }
    });

    describe('the position is where the parser stopped', () => {
      table(MALFORMED, ({ text, position }) => `${text} → ["body", ${position}]`, async ({ text, position }) => {
        const response = await send(app, { ...bodyless('POST /v2/discovery/query'), rawBody: text });
        expect(expectValidationBody(response)).toEqual([{ loc: ['body', position], type: 'json_invalid' }]);
      });
    });

    it.each(REQUIRED_BODY_ENDPOINTS)('%s: no body, or an empty one, is `missing` at ["body"]', async (endpoint) => {
      for (const req of [bodyless(endpoint), { ...bodyless(endpoint), rawBody: '' }, { ...bodyless(endpoint), rawBody: ' \n' }]) {
        expect(expectValidationBody(await send(app, req))).toEqual([{ loc: ['body'], type: 'missing' }]);
      }
    });

    it.each(BODY_ENDPOINTS.filter((endpoint) => !REQUIRED_BODY_ENDPOINTS.includes(endpoint)))(
      '%s: no body (not marked required by the spec) never answers 500',
      async (endpoint) => {
        const response = await send(app, bodyless(endpoint));
        expect(response.status, show(response)).not.toBe(500);
      },
    );

    it.each(BODY_ENDPOINTS)('%s: an array, a string, a number or a boolean is `dict_type` at ["body"]', async (endpoint) => {
      for (const value of [[], [valid(endpoint).body], 'text', 42, true]) {
        const response = await send(app, { ...bodyless(endpoint), body: value });
        expect(expectValidationBody(response), `${JSON.stringify(value)} → ${show(response)}`).toEqual([{ loc: ['body'], type: 'dict_type' }]);
      }
    });

    it.each(BODY_ENDPOINTS)('%s: JSON null is a 422 at ["body"]', async (endpoint) => {
      const [error, ...others] = expectValidationBody(await send(app, { ...bodyless(endpoint), rawBody: 'null' }));
      expect(others).toEqual([]);
      expect(error!.loc).toEqual(['body']);
      expect(['missing', 'dict_type']).toContain(error!.type);
    });
  });

  describe('errors raised outside the routes answer a D2 4xx body', () => {
    table(OUTSIDE_ROUTES, (row) => row.name, async (row) => {
      const response = await send(app, row.req);
      expect(response.status >= 400 && response.status < 500, show(response)).toBe(true);
      expectErrorBody(response);
    });
  });

  describe('no input answers 500 (D2): arbitrary bodies, query values and path parameters', () => {
    it.each(ENDPOINTS)('%s', async (endpoint) => {
      await fc.assert(
        fc.asyncProperty(arbitraryRequest(endpoint), async (req) => {
          expectNoFault(await send(app, req));
        }),
        { numRuns: FUZZ_RUNS },
      );
    });
  });
});
