import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MODES, startTestStack, type TestStack } from '@landscreen/testing';
import { claimed, diligenceApi, expectStatus, ledgerRows, newJob, outboxSubjects, session, STEPS, type DiligenceApi } from '../support/diligence.js';

const ADMIN = session('ada@acme.test', 'acme');
const WORKER = session('wes@acme.test', 'acme', 'worker');
const OTHER = session('gil@globex.test', 'globex');

/** One thing a worker does to a job's next step. */
type Op =
  | { complete: 'ready' | 'partial' | 'needs_review'; cost?: string }
  | { fail: 'retryable' | 'final' }
  | { reauthorize: string };

interface Row {
  name: string;
  budget: string;
  ops: Op[];
  job: string;
  steps: string[];
  cost: string;
  /** The job's outbox subjects after `diligence.job.created`. */
  events: string[];
}

const done = (status: 'ready' | 'partial' | 'needs_review', cost?: string): Op => ({ complete: status, ...(cost && { cost }) });
const allReady = STEPS.map(() => done('ready'));
const DONE_EVENTS = (n: number) => Array(n).fill('diligence.step.completed');

/**
 * The state machine over HTTP (D22, D24, D25): each row drives a fresh job through the steps in
 * order and checks where the job and its steps end, what it cost and which events it wrote.
 */
const ROWS: Row[] = [
  {
    name: 'every step ready → ready',
    budget: '10',
    ops: allReady,
    job: 'ready',
    steps: STEPS.map(() => 'ready'),
    cost: '0.0000',
    events: ['diligence.job.authorized', 'diligence.job.claimed', ...DONE_EVENTS(6), 'diligence.job.completed'],
  },
  {
    name: 'one step partial → partial',
    budget: '10',
    ops: [done('ready', '1.25'), done('partial', '0.5'), ...STEPS.slice(2).map(() => done('ready'))],
    job: 'partial',
    steps: ['ready', 'partial', 'ready', 'ready', 'ready', 'ready'],
    cost: '1.7500',
    events: ['diligence.job.authorized', 'diligence.job.claimed', ...DONE_EVENTS(6), 'diligence.job.completed'],
  },
  {
    name: 'one step needs_review (and one partial) → needs_review',
    budget: '10',
    ops: [done('partial'), done('needs_review'), ...STEPS.slice(2).map(() => done('ready'))],
    job: 'needs_review',
    steps: ['partial', 'needs_review', 'ready', 'ready', 'ready', 'ready'],
    cost: '0.0000',
    events: ['diligence.job.authorized', 'diligence.job.claimed', ...DONE_EVENTS(6), 'diligence.job.completed'],
  },
  {
    name: 'a cost over the budget is recorded and stops the job at needs_review',
    budget: '1',
    ops: [done('ready', '0.75'), done('ready', '0.2501')],
    job: 'needs_review',
    steps: ['ready', 'ready', 'pending', 'pending', 'pending', 'pending'],
    cost: '1.0001',
    events: ['diligence.job.authorized', 'diligence.job.claimed', ...DONE_EVENTS(2), 'diligence.job.completed'],
  },
  {
    name: 'a cost exactly at the budget is not over it',
    budget: '1',
    ops: [done('ready', '0.75'), done('ready', '0.25'), ...STEPS.slice(2).map(() => done('ready'))],
    job: 'ready',
    steps: STEPS.map(() => 'ready'),
    cost: '1.0000',
    events: ['diligence.job.authorized', 'diligence.job.claimed', ...DONE_EVENTS(6), 'diligence.job.completed'],
  },
  {
    name: 'stopped over budget, re-authorized with more, goes on to ready',
    budget: '1',
    ops: [done('ready', '1.5'), { reauthorize: '5' }, ...STEPS.slice(1).map(() => done('ready'))],
    job: 'ready',
    steps: STEPS.map(() => 'ready'),
    cost: '1.5000',
    events: [
      'diligence.job.authorized', 'diligence.job.claimed', 'diligence.step.completed', 'diligence.job.completed',
      'diligence.job.authorized', 'diligence.job.claimed', ...DONE_EVENTS(5), 'diligence.job.completed',
    ],
  },
  {
    name: 'retryable failures go back to authorized; the third attempt may still succeed',
    budget: '10',
    ops: [{ fail: 'retryable' }, { fail: 'retryable' }, ...allReady],
    job: 'ready',
    steps: STEPS.map(() => 'ready'),
    cost: '0.0000',
    events: [
      'diligence.job.authorized', 'diligence.job.claimed',
      'diligence.step.failed', 'diligence.job.authorized', 'diligence.job.claimed',
      'diligence.step.failed', 'diligence.job.authorized', 'diligence.job.claimed',
      ...DONE_EVENTS(6), 'diligence.job.completed',
    ],
  },
  {
    name: 'a third retryable failure fails the job (3 attempts per step)',
    budget: '10',
    ops: [done('ready'), { fail: 'retryable' }, { fail: 'retryable' }, { fail: 'retryable' }],
    job: 'failed',
    steps: ['ready', 'failed', 'pending', 'pending', 'pending', 'pending'],
    cost: '0.0000',
    events: [
      'diligence.job.authorized', 'diligence.job.claimed', 'diligence.step.completed',
      'diligence.step.failed', 'diligence.job.authorized', 'diligence.job.claimed',
      'diligence.step.failed', 'diligence.job.authorized', 'diligence.job.claimed',
      'diligence.step.failed', 'diligence.job.failed',
    ],
  },
  {
    name: 'a failure that is not retryable fails the job at once',
    budget: '10',
    ops: [done('ready', '0.1'), { fail: 'final' }],
    job: 'failed',
    steps: ['ready', 'failed', 'pending', 'pending', 'pending', 'pending'],
    cost: '0.1000',
    events: ['diligence.job.authorized', 'diligence.job.claimed', 'diligence.step.completed', 'diligence.step.failed', 'diligence.job.failed'],
  },
];

/** Runs the row's operations, claiming again whenever the job went back to authorized. */
async function drive(api: DiligenceApi, jobId: string, row: Row) {
  let token = await claimed(api, jobId, row.budget);
  let next = 0;
  for (const op of row.ops) {
    const step = STEPS[next]!;
    if ('reauthorize' in op) {
      expectStatus(await api.authorize(jobId, op.reauthorize, 'More budget after review.'), 200);
      token = expectStatus(await api.claim(jobId, 'worker-2'), 200).body.claim_token;
      continue;
    }
    const started = expectStatus(await api.start(jobId, step, token), 200);
    expect(started.body.steps[next].status).toBe('running');
    expect(started.body.status).toBe('running');
    if ('complete' in op) {
      const answer = expectStatus(await api.complete(jobId, step, token, { status: op.complete, cost_usd: op.cost ?? 0, provider_request_id: `req-${step}` }), 200);
      expect(answer.body.steps[next].status).toBe(op.complete);
      next += 1;
    } else {
      const answer = expectStatus(await api.fail(jobId, step, token, op.fail === 'retryable'), 200);
      if (answer.body.status === 'authorized') {
        expect(answer.body.steps[next].status).toBe('pending');
        expect(answer.body.claimed_by).toBeNull();
        // The claim ended with the retry: its token no longer works (D23, D25).
        expect((await api.start(jobId, step, token)).body.code).toBe('invalid_claim');
        token = expectStatus(await api.claim(jobId, 'worker-2'), 200).body.claim_token;
      }
    }
  }
}

describe.each(DATABASE_MODES)('diligence jobs on %s', (mode) => {
  let app: TestStack;
  let api: DiligenceApi;

  beforeAll(async () => {
    app = await startTestStack(mode);
    for (const headers of [ADMIN, WORKER, OTHER]) expect((await app.get('/v1/me', { headers })).status).toBe(200);
    api = diligenceApi(app, WORKER);
  });
  afterAll(() => app?.close());

  describe('the state machine, row by row', () => {
    it.each(ROWS.map((row) => [row.name, row] as const))('%s', async (_name, row) => {
      const { jobId } = await newJob(app, 'acme');
      await drive(api, jobId, row);
      const job = expectStatus(await api.get(jobId), 200).body;
      expect(job.status).toBe(row.job);
      expect(job.steps.map((step: any) => step.status)).toEqual(row.steps);
      expect(job.cost_usd).toBe(row.cost);
      expect(job.max_cost_usd).toMatch(/^\d+\.\d{4}$/);
      if (!['running', 'authorized'].includes(job.status)) expect(job.claimed_by).toBeNull();
      expect(await outboxSubjects(app, jobId)).toEqual(['diligence.job.created', ...row.events]);
      // The ledger holds exactly the costs above zero, one row each.
      const costs = row.ops.flatMap((op) => ('complete' in op && op.cost ? [op.cost] : []));
      expect((await ledgerRows(app, jobId)).map((entry) => Number(entry.amount_usd))).toEqual(costs.map(Number));
    });
  });

  it('a job answers with its ordered steps and money as decimal strings', async () => {
    const { jobId, propertyId } = await newJob(app, 'acme');
    const job = expectStatus(await api.get(jobId), 200).body;
    expect(job).toMatchObject({ id: jobId, property_id: propertyId, status: 'queued', max_cost_usd: null, cost_usd: '0.0000', claimable: false });
    expect(job.steps.map((step: any) => [step.name, step.position, step.status, step.attempts])).toEqual(STEPS.map((name, index) => [name, index, 'pending', 0]));
    const authorized = expectStatus(await api.authorize(jobId, 12.5, 'Deal lead approved.'), 200).body;
    expect(authorized).toMatchObject({ status: 'authorized', max_cost_usd: '12.5000', note: 'Deal lead approved.', claimable: true });
  });

  it('lists jobs by status (default queued), oldest first, with the total', async () => {
    const fresh = await diligenceApi(app, session('lia@listing.test', 'listing', 'worker'));
    await fresh.list(); // creates the tenant
    const ids = [];
    for (let index = 0; index < 3; index += 1) ids.push((await newJob(app, 'listing')).jobId);
    expectStatus(await fresh.authorize(ids[1]!), 200);
    const queued = expectStatus(await fresh.list(), 200).body;
    expect(queued).toMatchObject({ total: 2, limit: 20, offset: 0 });
    expect(queued.jobs.map((job: any) => job.id)).toEqual([ids[0], ids[2]]);
    const page = expectStatus(await fresh.list({ status: 'queued', limit: 1, offset: 1 }), 200).body;
    expect(page).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(page.jobs.map((job: any) => job.id)).toEqual([ids[2]]);
    const authorized = expectStatus(await fresh.list({ status: 'authorized' }), 200).body;
    expect(authorized.jobs.map((job: any) => job.id)).toEqual([ids[1]]);
    expect(authorized.jobs[0].steps).toHaveLength(6);
    const unknown = await fresh.list({ status: 'done' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]).toMatchObject({ loc: ['query', 'status'], type: 'literal_error' });
  });

  it('authorizing again before a claim changes the budget; the same budget again changes nothing', async () => {
    const { jobId } = await newJob(app, 'acme');
    expectStatus(await api.authorize(jobId, '5', 'First budget.'), 200);
    expect(expectStatus(await api.authorize(jobId, '7.25', 'Raised.'), 200).body).toMatchObject({ status: 'authorized', max_cost_usd: '7.2500', note: 'Raised.' });
    expect(expectStatus(await api.authorize(jobId, '7.2500', 'Raised.'), 200).body.max_cost_usd).toBe('7.2500');
    expect(await outboxSubjects(app, jobId)).toEqual(['diligence.job.created', 'diligence.job.authorized', 'diligence.job.authorized']);
    expectStatus(await api.claim(jobId), 200);
    const running = await api.authorize(jobId, '9', 'Too late.');
    expect(running.status).toBe(409);
    expect(running.body).toMatchObject({ code: 'invalid_job_state', status: 'running' });
  });

  it('a budget below what the job already spent is refused', async () => {
    const { jobId } = await newJob(app, 'acme');
    const token = await claimed(api, jobId, '1');
    expectStatus(await api.complete(jobId, STEPS[0]!, token, { cost_usd: '2' }), 200);
    const low = await api.authorize(jobId, '1.5', 'Not enough.');
    expect(low.status).toBe(409);
    expect(low.body).toMatchObject({ code: 'budget_below_cost', cost_usd: '2.0000' });
  });

  it('claim refusals: not authorized, already claimed, finished (409)', async () => {
    const { jobId } = await newJob(app, 'acme');
    expect((await api.claim(jobId)).body).toMatchObject({ code: 'not_authorized' });
    expectStatus(await api.authorize(jobId), 200);
    const first = expectStatus(await api.claim(jobId, 'worker-1', 600), 200).body;
    expect(first.claim_token).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.job).toMatchObject({ id: jobId, status: 'running', claimed_by: 'worker-1', lease_expires_at: first.lease_expires_at });
    const second = await api.claim(jobId, 'worker-2');
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'already_claimed', detail: expect.any(String) });
    expectStatus(await api.fail(jobId, STEPS[0]!, first.claim_token, false), 200);
    expect((await api.claim(jobId)).body).toMatchObject({ code: 'invalid_job_state', status: 'failed' });
  });

  it('step actions: wrong token 409 invalid_claim, unknown step 404, finished step 409', async () => {
    const { jobId } = await newJob(app, 'acme');
    const token = await claimed(api, jobId);
    const wrong = await api.start(jobId, STEPS[0]!, '00000000-0000-4000-8000-000000000000');
    expect(wrong.status).toBe(409);
    expect(wrong.body.code).toBe('invalid_claim');
    const unknown = await api.start(jobId, 'palm_reading', token);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('step_not_found');
    // Upper-case tokens are the same UUID.
    expectStatus(await api.start(jobId, STEPS[0]!, token.toUpperCase()), 200);
    // A repeated start under the same claim is not a new attempt.
    expect(expectStatus(await api.start(jobId, STEPS[0]!, token), 200).body.steps[0].attempts).toBe(1);
    expectStatus(await api.complete(jobId, STEPS[0]!, token), 200);
    for (const again of [api.start(jobId, STEPS[0]!, token), api.complete(jobId, STEPS[0]!, token), api.fail(jobId, STEPS[0]!, token, true)]) {
      const response = await again;
      expect(response.status).toBe(409);
      expect(response.body).toMatchObject({ code: 'step_finished', step: STEPS[0], status: 'ready' });
    }
    // A step may be completed without a start: the run counts as an attempt.
    const direct = expectStatus(await api.complete(jobId, STEPS[1]!, token, { status: 'partial', data: { parcels: 1 }, citations: [{ url: 'https://example.com/deed' }] }), 200);
    expect(direct.body.steps[1]).toMatchObject({ status: 'partial', attempts: 1, data: { parcels: 1 }, citations: [{ url: 'https://example.com/deed' }], provider: 'acme-data' });
  });

  it('unknown jobs and other tenants\' jobs are 404 job_not_found', async () => {
    const { jobId } = await newJob(app, 'acme');
    const other = diligenceApi(app, OTHER);
    for (const id of [jobId, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      for (const response of [await other.get(id), await other.authorize(id), await other.claim(id), await other.reconcile(id, STEPS[0]!)]) {
        expect(response.status).toBe(404);
        expect(response.body.code).toBe('job_not_found');
      }
    }
    expect((await other.list()).body.jobs.map((job: any) => job.id)).not.toContain(jobId);
    expect(expectStatus(await api.get(jobId), 200).body.status).toBe('queued');
  });

  it('a cost no numeric(12,4) column can hold is a 422 on cost_usd, not a fault', async () => {
    const { jobId } = await newJob(app, 'acme');
    const token = await claimed(api, jobId);
    const huge = await api.complete(jobId, STEPS[0]!, token, { cost_usd: 1.5e21 });
    expect(huge.status).toBe(422);
    expect(huge.body.detail[0]).toMatchObject({ loc: ['body', 'cost_usd'], type: 'less_than_equal' });
    expect(expectStatus(await api.get(jobId), 200).body.steps[0].status).toBe('pending');
  });

  it('JSON with lone surrogates is stored (as U+FFFD), never a fault', async () => {
    const { jobId } = await newJob(app, 'acme');
    const token = await claimed(api, jobId);
    const response = await app.request('POST', `/v1/internal/diligence/jobs/${jobId}/steps/${STEPS[0]}/complete`, {
      headers: { ...WORKER, 'content-type': 'application/json' },
      rawBody: `{"status":"ready","provider":"p","claim_token":"${token}","data":{"note":"\\ud800x","\\udc00":1}}`,
    });
    expectStatus(response, 200);
    expect(response.body.steps[0].data).toEqual({ note: '\ufffdx', '\ufffd': 1 });
  });

  it('analysts and viewers cannot use the internal API (403)', async () => {
    const { jobId } = await newJob(app, 'acme');
    for (const role of ['analyst', 'viewer']) {
      const response = await diligenceApi(app, session(`${role}@acme.test`, 'acme', role)).get(jobId);
      expect(response.status).toBe(403);
      expect(response.body.code).toBe('forbidden');
    }
    expectStatus(await diligenceApi(app, ADMIN).get(jobId), 200);
  });
});
