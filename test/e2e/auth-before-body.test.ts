// Who is calling comes before what the body says (D39), over HTTP on PGlite and PostgreSQL: an
// anonymous caller is 401 and a role that may not call a route 403 whatever its body holds (it
// used to be a 422 about the body, so anyone could have a body parsed); a body whose declared
// type no route reads is 415, while a route without a body ignores what was sent.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MODES, startTestStack, type TestStack } from '@landscreen/testing';

const as = (role: string) => ({ authorization: `Bearer dev:${role}@order.test:${role}`, 'x-tenant': 'order-co' });
const ESTIMATE = '/v1/internal/hosting-capacity/estimate';
const BAD_ESTIMATE = { lat: 'north', lon: 500, extra: true };

describe.each(DATABASE_MODES)('authentication before the body, on %s', (mode) => {
  let app: TestStack;

  beforeAll(async () => {
    app = await startTestStack(mode);
    for (const role of ['admin', 'viewer']) expect((await app.get('/v1/me', { headers: as(role) })).status).toBe(200);
  });
  afterAll(() => app?.close());

  it('answers a viewer calling an internal endpoint 403, not a 422 about its body', async () => {
    const response = await app.post(ESTIMATE, BAD_ESTIMATE, { headers: as('viewer') });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ detail: `The viewer role may not POST ${ESTIMATE}.`, code: 'forbidden' });
    // The same body from a role that may call it is validated: D1, every issue.
    const admin = await app.post(ESTIMATE, BAD_ESTIMATE, { headers: as('admin') });
    expect(admin.status).toBe(422);
    expect(admin.body.detail.map((item: { loc: unknown[] }) => item.loc)).toEqual(expect.arrayContaining([['body', 'lat'], ['body', 'lon']]));
  });

  it('answers an anonymous caller 401 whatever its body, malformed JSON included', async () => {
    for (const rawBody of ['{"locations": [', '{"locations":[{"lat":"x"}]}']) {
      const response = await app.request('POST', '/v1/runs', { rawBody, headers: { 'content-type': 'application/json' } });
      expect(response.status).toBe(401);
      expect(response.body.code).toBe('unauthenticated');
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('refuses a body of a type no route reads with 415, and reads the JSON types', async () => {
    const xml = await app.request('POST', '/v1/buyboxes', { rawBody: '<buybox><name>dc</name></buybox>', headers: { ...as('admin'), 'content-type': 'application/xml' } });
    expect(xml.status).toBe(415);
    expect(xml.body).toEqual({ detail: expect.stringContaining('application/xml'), code: 'unsupported_media_type' });
    const csv = await app.request('POST', '/v1/buyboxes', { rawBody: 'name\ndc\n', headers: { ...as('admin'), 'content-type': 'text/csv' } });
    expect(csv.status).toBe(415);
    // JSON as text or as curl's default form type is read as JSON (and validated: D1).
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/vnd.api+json; charset=utf-8']) {
      const read = await app.request('POST', '/v1/buyboxes', { rawBody: '{"name":""}', headers: { ...as('admin'), 'content-type': type } });
      expect(read.status, type).toBe(422);
      expect(read.body.detail.map((item: { loc: unknown[] }) => item.loc)).toContainEqual(['body', 'name']);
    }
    // Authentication still comes first: an anonymous XML body is 401.
    expect((await app.request('POST', '/v1/buyboxes', { rawBody: '<x/>', headers: { 'content-type': 'application/xml' } })).status).toBe(401);
  });

  it('answers a path that matches no route 404, whatever the type of its body', async () => {
    for (const [type, rawBody] of [['application/xml', '<a/>'], ['', '{}']] as const) {
      const response = await app.request('POST', '/v1/internal/diligence/jobs/./authorize', { rawBody, headers: { ...as('admin'), 'content-type': type } });
      expect(response.status, `content-type ${JSON.stringify(type)}`).toBe(404);
      expect(response.body.code).toBe('not_found');
    }
  });

  it('ignores the body of a route that takes none, whatever its type', async () => {
    const response = await app.request('DELETE', '/v1/runs/6f1c2a4e-3b1d-4c5e-9f2a-1b2c3d4e5f60', { rawBody: '<hello/>', headers: { ...as('admin'), 'content-type': 'application/xml' } });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('run_not_found');
  });
});
