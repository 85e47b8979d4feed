import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack, type TestStack } from '@landscreen/testing';

/**
 * Hostile bodies over HTTP against the real gateway: each answers its 4xx quickly, in the D1 or D2
 * shape, with a `loc` of strings and integers only, and never holds the event loop. Validation
 * runs before any service or database, so one database mode suffices here; the buy-box parts are
 * in input-limits-buyboxes.test.ts, in both modes.
 */

const ADMIN = { authorization: 'Bearer dev:ann@acme.test', 'x-tenant': 'acme' };
const JOB = '6f1c2a4e-3b1d-4c5e-9f2a-1b2c3d4e5f60';
const PROPERTY = '7a1c2a4e-3b1d-4c5e-9f2a-1b2c3d4e5f61';
const DRAFT = { markets: ['hand-tx'], must: [{ field: 'acres', op: 'eq', value: 1 }], verdict_cutoffs: { pursue: 70, monitor: 40 } };
const DEEP = '"__DEEP__"';

const deepArray = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;
const deepObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

/** The eight bodies that carry any JSON somewhere (a rule value, data, citations, contact). */
const CARRIERS: [string, string, unknown][] = [
  ['POST', '/v1/buyboxes', { name: 'deep', spec: { ...DRAFT, must: [{ field: 'acres', op: 'eq', value: '__DEEP__' }] } }],
  ['PUT', '/v1/buyboxes/deep', { spec: { ...DRAFT, must: [{ field: 'acres', op: 'in', value: '__DEEP__' }] } }],
  ['POST', '/v2/discovery/query', { buy_box: 'deep', draft: { ...DRAFT, must: [{ field: 'acres', op: 'eq', value: '__DEEP__' }] } }],
  ['POST', '/v2/pipeline', { parcel_key: 'p1', buy_box: 'deep', query_hash: 'a'.repeat(64), draft: { ...DRAFT, must: [{ field: 'acres', op: 'eq', value: '__DEEP__' }] } }],
  ['POST', '/v1/leads/find', { draft: { ...DRAFT, preferred: [{ field: 'acres', op: 'eq', value: '__DEEP__', weight: 1 }] } }],
  ['POST', `/v1/internal/diligence/jobs/${JOB}/steps/parcel_record/complete`, { status: 'ready', provider: 'p', claim_token: JOB, data: { deep: '__DEEP__' } }],
  ['POST', `/v1/internal/diligence/jobs/${JOB}/steps/parcel_record/reconcile`, { status: 'ready', provider: 'p', confirmed_no_retry: true, citations: ['__DEEP__'] }],
  ['POST', `/v1/properties/${PROPERTY}/reveal`, { contact: { name: '__DEEP__' }, provider: 'p', cost_usd: 0 }],
];

const withDeep = (body: unknown, deep: string) => JSON.stringify(body).replace(DEEP, deep);

/** The D1 body, whose every `loc` holds strings and integers only. */
function expectD1(response: { status: number; body: any }) {
  expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(422);
  for (const item of response.body.detail) {
    expect(item.loc.every((part: unknown) => typeof part === 'string' || Number.isInteger(part)), JSON.stringify(item.loc)).toBe(true);
  }
  return response.body.detail as { loc: (string | number)[]; type: string; msg: string; input?: unknown; ctx?: Record<string, unknown> }[];
}

const TOO_DEEP = { loc: ['body'], type: 'json_invalid', msg: 'JSON nested deeper than 64 levels', input: {}, ctx: { error: 'recursion limit exceeded', max_depth: 64 } };

/** A raw POST of bytes (fetch would not let a test send what a client may not). */
function postBytes(url: string, path: string, bytes: Buffer, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const request = httpRequest(new URL(path, url), { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': bytes.length, ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode!, body: text ? JSON.parse(text) : undefined });
      });
    });
    // The server may answer 413 and close before the whole body is written.
    request.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    request.end(bytes);
  });
}

describe('every input answered with a 4xx', () => {
  let app: TestStack;

  beforeAll(async () => {
    app = await startTestStack('pglite');
  });
  afterAll(() => app?.close());

  describe('nesting depth', () => {
    it.each(CARRIERS)('%s %s: a value nested 6,000 levels deep is a D1 422 at the body', async (method, path, body) => {
      for (const deep of [deepArray(6000), deepObject(6000)]) {
        const response = await app.request(method, path, { rawBody: withDeep(body, deep), headers: ADMIN });
        expect(expectD1(response)).toEqual([TOO_DEEP]);
      }
    });

    it('valid JSON nested 5,000 levels at the root is the same D1 422, not Fastify\'s own body', async () => {
      const response = await app.request('POST', '/v1/buyboxes', { rawBody: deepArray(5000), headers: ADMIN });
      expect(expectD1(response)).toEqual([TOO_DEEP]);
    });

    it('20,000 unclosed brackets: a D1 422 whose loc holds no object', async () => {
      const response = await app.request('POST', '/v1/buyboxes', { rawBody: '['.repeat(20_000), headers: ADMIN });
      expect(expectD1(response)).toEqual([TOO_DEEP]);
    });

    it('64 levels are read; 65 are not', async () => {
      // body (1) › spec (2) › must (3) › rule (4) › value: 60 arrays (5-64).
      const body = { name: 'deep', spec: { ...DRAFT, must: [{ field: 'acres', op: 'eq', value: '__DEEP__' }] } };
      const at64 = expectD1(await app.request('POST', '/v1/buyboxes', { rawBody: withDeep(body, deepArray(60)), headers: ADMIN }));
      expect(at64.map(({ loc, type }) => ({ loc, type }))).toEqual([{ loc: ['body', 'spec', 'must', 0, 'value'], type: 'value_error' }]);
      const at65 = expectD1(await app.request('POST', '/v1/buyboxes', { rawBody: withDeep(body, deepArray(61)), headers: ADMIN }));
      expect(at65).toEqual([TOO_DEEP]);
    });

    it('malformed JSON that is not deep keeps its json_invalid at the position', async () => {
      const response = await app.request('POST', '/v1/buyboxes', { rawBody: `[${'[1],'.repeat(10)}[2,]]`, headers: ADMIN });
      expect(expectD1(response).map(({ loc, type }) => ({ loc, type }))).toEqual([{ loc: ['body', 44], type: 'json_invalid' }]);
    });
  });

  describe('body size', () => {
    // Malformed but shallow (an unterminated string): every byte is read and parsed to find that out.
    const sixteenMegabytes = Buffer.concat([Buffer.from('{"token":"'), Buffer.alloc(16 * 1024 * 1024, 'a')]);

    it('a 16 MB body to the unauthenticated /v1/auth/verify is 413 payload_too_large', async () => {
      const response = await postBytes(app.url, '/v1/auth/verify', sixteenMegabytes);
      expect(response.status).toBe(413);
      expect(response.body).toMatchObject({ code: 'payload_too_large', detail: expect.any(String) });
    });

    it('sign-in takes a few kilobytes: 9 KiB is too large, a real body is not', async () => {
      const big = await postBytes(app.url, '/v1/auth/request-link', Buffer.from(JSON.stringify({ email: 'a@b.test', pad: 'x'.repeat(9 * 1024) })));
      expect(big.status).toBe(413);
      const real = await postBytes(app.url, '/v1/auth/verify', Buffer.from(JSON.stringify({ token: 'x'.repeat(43) })));
      expect(real.status).toBe(401);
    });

    it('/healthz answers while five 16 MB bodies hit /v1/auth/verify, and each of them is 413', async () => {
      const attacks = Array.from({ length: 5 }, () => postBytes(app.url, '/v1/auth/verify', sixteenMegabytes));
      // How long /healthz takes meanwhile is a figure for a benchmark (4.6 s before bodies were
      // limited per route, a few ms after, on a quiet machine), not a bound for a shared one.
      for (let probe = 0; probe < 5; probe++) expect((await app.get('/healthz')).status).toBe(200);
      const answers = await Promise.all(attacks);
      expect(answers.map((answer) => answer.status)).toEqual([413, 413, 413, 413, 413]);
    });

    it('a run takes up to 100,000 locations: a 16 MB array gets past the limit, and its 422 echoes a summary', async () => {
      const response = await postBytes(app.url, '/v1/runs', Buffer.from(`[${'0,'.repeat(8_000_000)}0]`), ADMIN);
      expect(response.status).toBe(422);
      expect(response.body.detail).toEqual([
        { type: 'dict_type', loc: ['body'], msg: 'Input should be a valid dictionary', input: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '… 7999991 more items'] },
      ]);
    });
  });

  describe('large bodies, read on a body worker', () => {
    it('a run of 100,000 locations, each with a word for its latitude, is a 422 listing every one', async () => {
      const locations = Array.from({ length: 100_000 }, (_, i) => ({ lat: `north-${i}`, lon: -97.7 }));
      const response = await postBytes(app.url, '/v1/runs', Buffer.from(JSON.stringify({ locations, fields: ['elevation'] })), ADMIN);
      expect(response.status).toBe(422);
      expect(response.body.detail).toHaveLength(100_000);
      expect(response.body.detail[99_999]).toMatchObject({ type: 'float_parsing', loc: ['body', 'locations', 99_999, 'lat'], input: 'north-99999' });
    });
  });

  describe('text that is not Unicode', () => {
    it('bytes that are not UTF-8 are D1 json_invalid at their position, not U+FFFD', async () => {
      const bytes = Buffer.concat([Buffer.from('{"name":"caf'), Buffer.from([0xe9]), Buffer.from(`","spec":${JSON.stringify(DRAFT)}}`)]);
      const response = await postBytes(app.url, '/v1/buyboxes', bytes, ADMIN);
      expect(expectD1(response)).toEqual([
        { type: 'json_invalid', loc: ['body', 12], msg: 'JSON decode error', input: {}, ctx: { error: 'Invalid UTF-8 at byte 12' } },
      ]);
    });

    it('a lone surrogate escape in a buy-box name is a D1 value_error at the name', async () => {
      const response = await app.request('POST', '/v1/buyboxes', { rawBody: `{"name":"x\\ud800","spec":${JSON.stringify(DRAFT)}}`, headers: ADMIN });
      expect(expectD1(response).map(({ loc, type, msg }) => ({ loc, type, msg }))).toEqual([
        { loc: ['body', 'name'], type: 'value_error', msg: 'Value error, a name cannot contain control or invisible characters (found U+D800)' },
      ]);
    });
  });
});
