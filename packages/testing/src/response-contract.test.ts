import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpClient } from './http.js';
import { checkFetchResponse, ResponseContractError } from './response-contract.js';

/**
 * The check every e2e answer goes through must not pass silently: a server that answers the
 * gateway's paths with the wrong shapes, statuses and types, and the client refusing each one.
 */
interface Answer {
  status: number;
  type?: string;
  body?: unknown;
}

const ME = { tenant: { slug: 'acme', name: 'Acme' }, identity: { id: '0e4c8a52-2b8e-4f0c-9d0a-6a2f3c1b7e11', email: 'a@acme.test' }, role: 'analyst' };

const ANSWERS: Record<string, Answer> = {
  'GET /healthz': { status: 200, body: { status: 'ok', build: 'test' } },
  'GET /v1/me': { status: 200, body: ME },
  // A field missing, a value of the wrong type, a status no route declares.
  'GET /v1/usage': { status: 200, body: { plan: 'free', month: '2026-11', included: 5000, charged: '12', remaining: 4988, rpm: 20, by_operation: {} } },
  'GET /v1/buyboxes': { status: 418, body: { detail: 'short and stout', code: 'teapot' } },
  // An open record (the spec's "identity") with a field the server never declared.
  'POST /v1/auth/logout': { status: 200, body: { status: 'logged_out', revoked: true, reason: 'undeclared' } },
  'GET /v1/runs': { status: 200, type: 'text/plain', body: 'runs' },
  'GET /v1/meta/plans': { status: 500, body: { detail: 'internal error', code: 'internal', request_id: 'r-1' } },
  'POST /v1/auth/verify': { status: 200, body: { ...ME, session: { token: 't', expires_at: '2026-12-01T00:00:00.000Z' }, identity: { ...ME.identity, phone: '555' } } },
  'GET /v1/deliveries/0e4c8a52-2b8e-4f0c-9d0a-6a2f3c1b7e11': { status: 404, body: { detail: 'No delivery.', code: 'delivery_not_found' } },
  'GET /v1/lead-requests': {
    status: 200,
    body: {
      lead_requests: [
        { id: 'not-a-uuid', buy_box: 'DC', count: 5, note: null, status: 'open', delivery_id: null, failure_code: null, failure_reason: null, created_at: '2026-11-23T10:00:00.000Z', completed_at: null },
      ],
    },
  },
  'DELETE /v1/buyboxes/x': { status: 204 },
};

describe('the response contract check of the test client', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      const answer = ANSWERS[`${request.method} ${request.url}`] ?? { status: 404, body: { detail: 'No route.', code: 'not_found' } };
      response.writeHead(answer.status, answer.body === undefined ? {} : { 'content-type': answer.type ?? 'application/json; charset=utf-8' });
      response.end(answer.body === undefined ? undefined : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('passes answers that match their declaration', async () => {
    const client = httpClient(url);
    expect((await client.get('/healthz')).body).toEqual({ status: 'ok', build: 'test' });
    expect((await client.get('/v1/me')).status).toBe(200);
    expect((await client.get('/v1/meta/plans')).status).toBe(500);
    expect((await client.get('/v1/deliveries/0e4c8a52-2b8e-4f0c-9d0a-6a2f3c1b7e11')).status).toBe(404);
    expect((await client.request('DELETE', '/v1/buyboxes/x')).status).toBe(204);
    // A path no route has: the not-found handler's D2 404.
    expect((await client.get('/v1/nothing-here')).status).toBe(404);
  });

  it('fails on a body off its schema, naming the route, the JSON pointer and the value', async () => {
    const failure = httpClient(url).get('/v1/usage');
    await expect(failure).rejects.toBeInstanceOf(ResponseContractError);
    await expect(failure).rejects.toThrow(/GET \/v1\/usage → 200: the body does not match the schema GET \/v1\/usage declares for 200/);
    await expect(failure).rejects.toThrow(/at \/charged: must be integer .*value: "12"/);
    await expect(failure).rejects.toThrow(/at \/: must have required property 'signup_grant'/);
    await expect(httpClient(url).get('/v1/lead-requests')).rejects.toThrow(/at \/lead_requests\/0\/id: must match format "uuid"/);
  });

  it('fails on a status the route does not declare', async () => {
    await expect(httpClient(url).get('/v1/buyboxes')).rejects.toThrow(/status 418 is not declared for GET \/v1\/buyboxes \(declared: 200, 400, 401, 403, 413, 415, 422, 431, 500, 503\)/);
  });

  it('fails on a field added to a closed object, and to an open record of the spec', async () => {
    await expect(httpClient(url).post('/v1/auth/logout')).rejects.toThrow(/at \/: must NOT have additional properties "reason"/);
    // The identity is a record the spec calls open (`x-open-record`): closed for the tests.
    await expect(httpClient(url).post('/v1/auth/verify', { token: 't' })).rejects.toThrow(/at \/identity: must NOT have additional properties "phone"/);
  });

  it('fails on a content type the route does not declare', async () => {
    await expect(httpClient(url).get('/v1/runs')).rejects.toThrow(/GET \/v1\/runs answers application\/json for 200, not "text\/plain"/);
  });

  it('checks a raw fetch too, leaving its body readable', async () => {
    const response = await fetch(`${url}/healthz`);
    await checkFetchResponse('GET', response.url, response);
    expect(await response.json()).toEqual({ status: 'ok', build: 'test' });
    const wrong = await fetch(`${url}/v1/usage`);
    await expect(checkFetchResponse('GET', wrong.url, wrong)).rejects.toThrow(/at \/charged: must be integer/);
  });
});
