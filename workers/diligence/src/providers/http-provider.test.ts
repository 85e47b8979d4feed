import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job, JobStep } from '../api-types.js';
import { httpProvider } from './http-provider.js';
import { ProviderFailure, type StepInput } from './provider.js';

/** A real HTTP provider on a free port; each test picks its behaviour by path. */
let server: Server;
let base: string;
const received: { path: string; key: string | undefined; body: any }[] = [];

const routes: Record<string, (req: IncomingMessage, res: ServerResponse, body: any) => void> = {
  '/ok': (_req, res, body) => json(res, 200, { status: 'ready', provider: 'acme', provider_version: '2', data: { echo: body.step }, citations: [{ url: 'https://acme.test/1' }], cost_usd: '0.1250' }),
  '/ok-minimal': (_req, res) => json(res, 200, { status: 'partial' }),
  '/slow': (_req, res) => setTimeout(() => json(res, 200, { status: 'ready' }), 500),
  '/busy': (_req, res) => json(res, 503, { detail: 'busy' }),
  '/limited': (_req, res) => json(res, 429, {}),
  '/refuse': (_req, res) => json(res, 400, { detail: 'bad' }),
  '/bad-status': (_req, res) => json(res, 200, { status: 'done' }),
  '/bad-cost': (_req, res) => json(res, 200, { status: 'ready', cost_usd: '0.12345' }),
  '/not-json': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('hello');
  },
};

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const body = text ? JSON.parse(text) : undefined;
      received.push({ path: req.url!, key: req.headers['idempotency-key'] as string | undefined, body });
      routes[req.url!]!(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const step: JobStep = { name: 'owner_contact', position: 4, status: 'running', attempts: 1, provider: null, provider_version: null, provider_request_id: null, data: null, citations: [], cost_usd: '0.0000', error: null, started_at: null, completed_at: null };
const job = { id: 'j1', property_id: 'p1', market_id: 'm1', vintage_id: 'v1', parcel_key: 'K-1', steps: [step] } as unknown as Job;
const input = (requestId = 'req-1'): StepInput => ({ job, step, tenant: 'acme', property: null, requestId });

async function failure(path: string, timeoutMs = 2_000): Promise<ProviderFailure> {
  const error = await httpProvider(`${base}${path}`, timeoutMs).run(input()).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ProviderFailure);
  return error as ProviderFailure;
}

describe('the HTTP provider adapter', () => {
  it('posts the job and step with an idempotency key and reads the result, cost as text', async () => {
    const result = await httpProvider(`${base}/ok`, 2_000).run(input('req-42'));
    expect(result).toEqual({
      status: 'ready',
      provider: 'acme',
      provider_version: '2',
      provider_request_id: 'req-42',
      data: { echo: 'owner_contact' },
      citations: [{ url: 'https://acme.test/1' }],
      cost_usd: '0.1250',
    });
    const sent = received.find((r) => r.path === '/ok')!;
    expect(sent.key).toBe('req-42');
    expect(sent.body).toMatchObject({ request_id: 'req-42', tenant: 'acme', step: 'owner_contact', attempt: 1, job: { id: 'j1', parcel_key: 'K-1' }, property: null });
  });

  it('fills what a minimal answer leaves out', async () => {
    const result = await httpProvider(`${base}/ok-minimal`, 2_000).run(input('req-7'));
    expect(result).toMatchObject({ status: 'partial', provider: expect.stringMatching(/^http:127\.0\.0\.1:/), provider_request_id: 'req-7', cost_usd: '0', citations: [] });
  });

  it('fails retryably on a timeout, 5xx, 429 or an unreachable provider', async () => {
    expect(await failure('/slow', 100)).toMatchObject({ code: 'provider_timeout', retryable: true });
    expect(await failure('/busy')).toMatchObject({ code: 'provider_error', retryable: true });
    expect(await failure('/limited')).toMatchObject({ code: 'provider_error', retryable: true });
    const unreachable = await httpProvider('http://127.0.0.1:1/none', 1_000).run(input()).catch((e: unknown) => e);
    expect(unreachable).toMatchObject({ code: 'provider_unreachable', retryable: true });
  });

  it('fails for good on a refusal or an answer complete would not take', async () => {
    expect(await failure('/refuse')).toMatchObject({ code: 'provider_refused', retryable: false });
    expect(await failure('/bad-status')).toMatchObject({ code: 'provider_bad_answer', retryable: false });
    expect(await failure('/bad-cost')).toMatchObject({ code: 'provider_bad_answer', retryable: false });
    expect(await failure('/not-json')).toMatchObject({ code: 'provider_bad_answer', retryable: false });
  });
});
