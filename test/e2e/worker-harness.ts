import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'nats';
import { DILIGENCE_STREAM } from '@landscreen/events';
import type { HttpClient } from '@landscreen/testing';
import { waitFor } from '../../packages/events/src/test-wait.js';

/**
 * Test support for the worker suites: an outside provider over real HTTP whose answer each test
 * scripts per step, and waits on a job's status and on the worker's durable consumer.
 */
export interface ProviderCall {
  step: string;
  jobId: string;
  requestId: string;
  idempotencyKey: string | undefined;
  attempt: number;
}

export type ProviderScript = (call: ProviderCall, count: number) => Promise<{ status: number; body: unknown }> | { status: number; body: unknown };

export interface ProviderServer {
  url(step: string): string;
  calls: ProviderCall[];
  script: ProviderScript;
  close(): Promise<void>;
}

/** By default every step is ready at no cost, as a provider would answer it. */
export const readyAnswer = (call: ProviderCall, cost = '0') => ({
  status: 200,
  body: { status: 'ready', provider: 'acme-data', provider_version: '7', data: { summary: `${call.step} checked by acme-data.` }, citations: [{ source: 'acme-data' }], cost_usd: cost },
});

export async function startProviderServer(): Promise<ProviderServer> {
  const calls: ProviderCall[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', async () => {
      const body = JSON.parse(text);
      const call: ProviderCall = {
        step: body.step,
        jobId: body.job.id,
        requestId: body.request_id,
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        attempt: body.attempt,
      };
      calls.push(call);
      const count = calls.filter((c) => c.jobId === call.jobId && c.step === call.step).length;
      const answer = await provider.script(call, count);
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider: ProviderServer = {
    url: (step) => `${base}/${step}`,
    calls,
    script: (call) => readyAnswer(call),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return provider;
}

const SETTLED = ['ready', 'partial', 'needs_review', 'failed'];

/** Polls the job (as an admin of its tenant) until it settles; answers the job view. */
export async function settledJob(app: Pick<HttpClient, 'get'>, headers: Record<string, string>, jobId: string): Promise<any> {
  let job: any;
  await waitFor(
    async () => {
      job = (await app.get(`/v1/internal/diligence/jobs/${jobId}`, { headers })).body;
      return SETTLED.includes(job.status);
    },
    `job ${jobId} to settle`,
  );
  return job;
}

/** Waits until a durable has been handed every message of the stream and acked them all. */
export async function consumerIdle(natsUrl: string, durable: string): Promise<void> {
  const nc = await connect({ servers: natsUrl });
  try {
    const jsm = await nc.jetstreamManager();
    await waitFor(
      async () => {
        const info = await jsm.consumers.info(DILIGENCE_STREAM, durable);
        return info.num_pending === 0 && info.num_ack_pending === 0;
      },
      `${durable} to be idle`,
    );
  } finally {
    await nc.close();
  }
}
