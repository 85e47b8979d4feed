import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@landscreen/rpc';
import { DATABASE_MODES, startTestStack, type TestStack } from '@landscreen/testing';
import { diligenceApi, expectStatus, ledgerRows, newJob, session, STEPS, type DiligenceApi } from '../support/diligence.js';

const WORKER = session('wes@claims.test', 'claims', 'worker');

/** D23 on real PostgreSQL: concurrent claimers hold row locks, so no two ever share a job. */
describe('concurrent claims on postgres', () => {
  let app: TestStack;
  let api: DiligenceApi;

  beforeAll(async () => {
    app = await startTestStack('postgres');
    expectStatus(await app.get('/v1/me', { headers: WORKER }), 200);
    api = diligenceApi(app, WORKER);
  });
  afterAll(() => app?.close());

  it('20 claimers of one job: exactly one wins, the others get 409 already_claimed', async () => {
    const { jobId } = await newJob(app, 'claims');
    expectStatus(await api.authorize(jobId), 200);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => api.claim(jobId, `worker-${index}`)));
    const winners = answers.filter((answer) => answer.status === 200);
    expect(winners).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409).map((answer) => answer.body.code)).toEqual(Array(19).fill('already_claimed'));
    const job = expectStatus(await api.get(jobId), 200).body;
    expect(job.claimed_by).toBe(winners[0]!.body.job.claimed_by);
  });

  it('20 workers racing over 8 authorized jobs: every job claimed exactly once, by one worker', async () => {
    const jobIds: string[] = [];
    for (let index = 0; index < 8; index += 1) {
      const { jobId } = await newJob(app, 'claims');
      expectStatus(await api.authorize(jobId), 200);
      jobIds.push(jobId);
    }
    // Each worker tries the jobs in its own order and keeps the first it gets.
    const workers = Array.from({ length: 20 }, async (_, worker) => {
      const order = jobIds.map((_, index) => jobIds[(index + worker) % jobIds.length]!);
      for (const jobId of order) {
        const answer = await api.claim(jobId, `racer-${worker}`);
        if (answer.status === 200) return { worker: `racer-${worker}`, jobId, token: answer.body.claim_token as string };
        expect(answer.status).toBe(409);
      }
      return undefined;
    });
    const won = (await Promise.all(workers)).filter((claim) => claim !== undefined);
    expect(won).toHaveLength(8);
    expect(new Set(won.map((claim) => claim.jobId)).size).toBe(8);
    expect(new Set(won.map((claim) => claim.worker)).size).toBe(8);
    for (const claim of won) {
      const job = expectStatus(await api.get(claim.jobId), 200).body;
      expect(job.claimed_by).toBe(claim.worker);
      // Only the winner's token works.
      expectStatus(await api.start(claim.jobId, STEPS[0]!, claim.token), 200);
    }
  });
});

/** D23 fencing: leases are read from the service's clock, so the tests move time by hand. */
describe.each(DATABASE_MODES)('leases and fencing on %s', (mode) => {
  let app: TestStack;
  let api: DiligenceApi;
  const clock = new ManualClock(new Date('2026-03-10T12:00:00Z'));

  beforeAll(async () => {
    app = await startTestStack(mode, { clock });
    expectStatus(await app.get('/v1/me', { headers: WORKER }), 200);
    api = diligenceApi(app, WORKER);
  });
  afterAll(() => app?.close());

  it('the lease ends at claim time + lease_seconds by the service clock', async () => {
    const { jobId } = await newJob(app, 'claims');
    expectStatus(await api.authorize(jobId), 200);
    const claim = expectStatus(await api.claim(jobId, 'worker-a', 90), 200).body;
    expect(claim.lease_expires_at).toBe(new Date(clock.now().getTime() + 90_000).toISOString());
    const defaulted = await newJob(app, 'claims');
    expectStatus(await api.authorize(defaulted.jobId), 200);
    expect(expectStatus(await api.claim(defaulted.jobId, 'worker-a'), 200).body.lease_expires_at).toBe(new Date(clock.now().getTime() + 3_600_000).toISOString());
  });

  it('after the lease expires the old token stops working, the job may be claimed again, and only the new token works', async () => {
    const { jobId } = await newJob(app, 'claims');
    expectStatus(await api.authorize(jobId), 200);
    const first = expectStatus(await api.claim(jobId, 'worker-a', 60), 200).body;
    expectStatus(await api.start(jobId, STEPS[0]!, first.claim_token), 200);

    clock.advance(59_999);
    expect((await api.claim(jobId, 'worker-b')).body.code).toBe('already_claimed');
    clock.advance(1);
    // Expired, not yet re-claimed: the old token is already refused.
    expect(expectStatus(await api.get(jobId), 200).body).toMatchObject({ status: 'running', claimable: true });
    const late = await api.complete(jobId, STEPS[0]!, first.claim_token, { cost_usd: '0.5' });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('invalid_claim');

    const second = expectStatus(await api.claim(jobId, 'worker-b', 60), 200).body;
    expect(second.claim_token).not.toBe(first.claim_token);
    expect(second.job).toMatchObject({ status: 'running', claimed_by: 'worker-b', claimable: false });
    for (const stale of [api.start(jobId, STEPS[0]!, first.claim_token), api.fail(jobId, STEPS[0]!, first.claim_token, true), api.complete(jobId, STEPS[0]!, first.claim_token)]) {
      expect((await stale).body.code).toBe('invalid_claim');
    }
    // The new claimer runs the step again: a second attempt.
    expect(expectStatus(await api.start(jobId, STEPS[0]!, second.claim_token), 200).body.steps[0]).toMatchObject({ status: 'running', attempts: 2 });
    expectStatus(await api.complete(jobId, STEPS[0]!, second.claim_token, { cost_usd: '0.25', provider_request_id: 'second' }), 200);
    expect(await ledgerRows(app, jobId)).toEqual([{ step: STEPS[0], provider_request_id: 'second', amount_usd: '0.2500' }]);
  });

  it('reconcile needs no token and works after the lease expired, without retrying anything', async () => {
    const { jobId } = await newJob(app, 'claims');
    expectStatus(await api.authorize(jobId), 200);
    const claim = expectStatus(await api.claim(jobId, 'worker-a', 60), 200).body;
    expectStatus(await api.start(jobId, STEPS[0]!, claim.claim_token), 200);
    clock.advance(120_000);
    const reconciled = expectStatus(await api.reconcile(jobId, STEPS[0]!, { provider_request_id: 'late-1', cost_usd: '0.3' }), 200).body;
    expect(reconciled.steps[0]).toMatchObject({ status: 'ready', provider_request_id: 'late-1', cost_usd: '0.3000', attempts: 1 });
    expect(reconciled).toMatchObject({ status: 'running', cost_usd: '0.3000', claimable: true });
    // The next claimer finds the step done and goes on with the next one.
    const next = expectStatus(await api.claim(jobId, 'worker-b'), 200).body;
    expect((await api.start(jobId, STEPS[0]!, next.claim_token)).body.code).toBe('step_finished');
    expectStatus(await api.start(jobId, STEPS[1]!, next.claim_token), 200);
  });
});
