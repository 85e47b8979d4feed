import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code, ConnectError } from '@connectrpc/connect';
import { MAX_JSON_DEPTH, readServiceError } from '@landscreen/rpc';
import { DATABASE_MODES, startTestStack, type TestStack } from '@landscreen/testing';
import { asMember, claimed, diligenceApi, diligenceClient, expectStatus, ledgerRows, newJob, session, STEPS, type DiligenceApi } from '../support/diligence.js';

const WORKER = session('wes@hardening.test', 'hardening', 'worker');
const MAX_USD = '99999999.9999';

/** `[[[…{"leaf":1}…]]]`, `depth` arrays and objects deep. */
const nested = (depth: number) => `${'['.repeat(depth - 1)}{"leaf":1}${']'.repeat(depth - 1)}`;
const bytes = (text: string) => new TextEncoder().encode(text);

/** What the service refused a direct (gRPC/Connect) call with: the code and the D1/D2 fields. */
async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConnectError);
  return readServiceError(error);
}

describe.each(DATABASE_MODES)('diligence hardening on %s', (mode) => {
  let app: TestStack;
  let api: DiligenceApi;

  beforeAll(async () => {
    app = await startTestStack(mode);
    expectStatus(await app.get('/v1/me', { headers: WORKER }), 200);
    api = diligenceApi(app, WORKER);
  });
  afterAll(() => app?.close());

  describe('money beyond numeric(12,4)', () => {
    it('a cost that would take the total past the column is a 409 amount_out_of_range; nothing is written and the step takes later costs', async () => {
      const { jobId } = await newJob(app, 'hardening');
      const token = await claimed(api, jobId, '100');
      // Far over budget: recorded all the same, and the job stops for review (D24).
      expect(expectStatus(await api.complete(jobId, STEPS[0]!, token, { provider_request_id: 'big', cost_usd: '99999999' }), 200).body.status).toBe('needs_review');
      for (const overflow of [
        () => api.reconcile(jobId, STEPS[0]!, { provider_request_id: 'late', cost_usd: '1' }),
        () => api.reconcile(jobId, STEPS[1]!, { provider_request_id: 'other-step', cost_usd: '1.5' }),
      ]) {
        const refused = await overflow();
        expect(refused.status).toBe(409);
        expect(refused.body).toMatchObject({ code: 'amount_out_of_range', cost_usd: '99999999.0000', max_usd: MAX_USD });
        expect(typeof refused.body.detail).toBe('string');
      }
      let job = expectStatus(await api.get(jobId), 200).body;
      expect(job).toMatchObject({ cost_usd: '99999999.0000' });
      expect(job.steps[0]).toMatchObject({ status: 'ready', cost_usd: '99999999.0000', provider_request_id: 'big' });
      expect(job.steps[1]).toMatchObject({ status: 'pending', cost_usd: '0.0000' });
      expect((await ledgerRows(app, jobId)).map((row) => row.provider_request_id)).toEqual(['big']);
      // What still fits is recorded, on the same step.
      expectStatus(await api.reconcile(jobId, STEPS[0]!, { provider_request_id: 'late', cost_usd: '0.9999' }), 200);
      job = expectStatus(await api.get(jobId), 200).body;
      expect(job.cost_usd).toBe(MAX_USD);
      expect(job.steps[0].cost_usd).toBe(MAX_USD);
      // A repeat of a recorded request adds nothing, so it is no overflow: the idempotent 200.
      expect(expectStatus(await api.reconcile(jobId, STEPS[0]!, { provider_request_id: 'late', cost_usd: '0.9999' }), 200).body.cost_usd).toBe(MAX_USD);
      // And the full column refuses any more, still with a 409.
      expect((await api.reconcile(jobId, STEPS[0]!, { provider_request_id: 'one-more', cost_usd: '0.0001' })).body.code).toBe('amount_out_of_range');
    });

    it('a single amount beyond the column stays a D1 422 on its field, everywhere money comes in', async () => {
      const { jobId, propertyId } = await newJob(app, 'hardening');
      const tooMuch = '100000000';
      const budget = await api.authorize(jobId, tooMuch);
      expect(budget.status).toBe(422);
      expect(budget.body.detail[0]).toMatchObject({ loc: ['body', 'max_cost_usd'], type: 'less_than_equal' });
      const token = await claimed(api, jobId);
      for (const response of [
        await api.complete(jobId, STEPS[0]!, token, { cost_usd: tooMuch }),
        await api.reconcile(jobId, STEPS[0]!, { cost_usd: tooMuch }),
        await api.reveal(propertyId, { contact: { name: 'X' }, provider: 'p', cost_usd: tooMuch }),
      ]) {
        expect(response.status).toBe(422);
        expect(response.body.detail[0]).toMatchObject({ loc: ['body', 'cost_usd'], type: 'less_than_equal' });
      }
      expect(await ledgerRows(app, jobId)).toEqual([]);
    });
  });

  describe('a provider request presented again (D24)', () => {
    it('with the same provider and amount is an idempotent 200; with another one a 409 conflict naming what is recorded', async () => {
      const { jobId } = await newJob(app, 'hardening');
      const token = await claimed(api, jobId);
      expectStatus(await api.complete(jobId, STEPS[0]!, token, { provider_request_id: 'p-1', cost_usd: '0.5' }), 200);
      const repeat = expectStatus(await api.reconcile(jobId, STEPS[0]!, { provider_request_id: 'p-1', cost_usd: '0.5000' }), 200).body;
      expect(repeat.cost_usd).toBe('0.5000');
      for (const changed of [{ cost_usd: '0.75' }, { cost_usd: '0' }, { provider: 'other-co', cost_usd: '0.5' }]) {
        const refused = await api.reconcile(jobId, STEPS[0]!, { provider_request_id: 'p-1', ...changed });
        expect(refused.status).toBe(409);
        expect(refused.body).toMatchObject({ code: 'conflict', recorded: { provider: 'acme-data', provider_request_id: 'p-1', cost_usd: '0.5000' } });
      }
      expect(await ledgerRows(app, jobId)).toEqual([{ step: STEPS[0], provider_request_id: 'p-1', amount_usd: '0.5000' }]);
      expect(expectStatus(await api.get(jobId), 200).body.cost_usd).toBe('0.5000');
    });

    it('a free request named by the step result is recorded too: a later cost for it is a conflict', async () => {
      const { jobId } = await newJob(app, 'hardening');
      const token = await claimed(api, jobId);
      expectStatus(await api.complete(jobId, STEPS[0]!, token, { provider_request_id: 'free-1' }), 200);
      expectStatus(await api.reconcile(jobId, STEPS[0]!, { provider_request_id: 'free-1', cost_usd: '0' }), 200);
      const refused = await api.reconcile(jobId, STEPS[0]!, { provider_request_id: 'free-1', cost_usd: '2' });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'conflict', recorded: { provider_request_id: 'free-1', cost_usd: '0.0000' } });
      expect(await ledgerRows(app, jobId)).toEqual([]);
    });

    it('a reveal repeated with another amount is a 409 conflict, not the first answer', async () => {
      const { propertyId, jobId } = await newJob(app, 'hardening');
      const body = { contact: { name: 'Pat' }, provider: 'skiptrace-co', provider_request_id: 'st-9', cost_usd: '0.25' };
      const first = expectStatus(await api.reveal(propertyId, body), 201).body;
      expect(expectStatus(await api.reveal(propertyId, body), 201).body).toEqual(first);
      const refused = await api.reveal(propertyId, { ...body, cost_usd: '0.30' });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'conflict', recorded: { provider: 'skiptrace-co', provider_request_id: 'st-9', cost_usd: '0.2500' } });
      expect(await ledgerRows(app, jobId)).toEqual([{ step: null, provider_request_id: 'st-9', amount_usd: '0.2500' }]);
    });
  });

  describe('spend days (D26)', () => {
    it('days outside 2000-01-01…2999-12-31 are a 422 on the query, in range an answer', async () => {
      for (const [day, type] of [
        ['9999-12-31', 'less_than_equal'],
        ['3000-01-01', 'less_than_equal'],
        ['1999-12-31', 'greater_than_equal'],
        ['1000-06-15', 'greater_than_equal'],
      ] as const) {
        const response = await api.spend(day);
        expect(response.status, day).toBe(422);
        expect(response.body.detail).toEqual([expect.objectContaining({ loc: ['query', 'day'], type, input: day })]);
      }
      for (const day of ['2000-01-01', '2999-12-31']) {
        expect(expectStatus(await api.spend(day), 200).body).toEqual({ day, total_usd: '0.0000', rows: 0, by_provider: {} });
      }
    });

    it('the service refuses them itself, for callers that bypass the gateway', async () => {
      const error = await refusal(diligenceClient(app).getSpend({ day: '9999-12-31' }, await asMember(app, 'hardening', 'worker')));
      expect(error.code).toBe(Code.InvalidArgument);
      expect(error.fields).toMatchObject({ detail: [{ loc: ['query', 'day'], type: 'less_than_equal' }] });
    });
  });

  describe('JSON nesting', () => {
    it(`data, citations and contact nested deeper than ${MAX_JSON_DEPTH} levels are a D1 422 over HTTP, never a 500`, async () => {
      const { jobId, propertyId } = await newJob(app, 'hardening');
      const token = await claimed(api, jobId);
      const deep = nested(3_000);
      const post = (path: string, rawBody: string) => app.request('POST', path, { headers: { ...WORKER, 'content-type': 'application/json' }, rawBody });
      const step = `/v1/internal/diligence/jobs/${jobId}/steps/${STEPS[0]}`;
      for (const response of [
        await post(`${step}/complete`, `{"status":"ready","provider":"p","claim_token":"${token}","data":{"deep":${deep}}}`),
        await post(`${step}/reconcile`, `{"status":"ready","provider":"p","confirmed_no_retry":true,"citations":${deep}}`),
        await post(`/v1/properties/${propertyId}/reveal`, `{"provider":"p","cost_usd":"0","contact":{"deep":${deep}}}`),
      ]) {
        expect(response.status).toBe(422);
        expect(response.body.detail[0].loc[0]).toBe('body');
      }
      const job = expectStatus(await api.get(jobId), 200).body;
      expect(job.steps[0]).toMatchObject({ status: 'pending', data: null });
      // As deep as allowed is stored whole.
      const deepest = JSON.parse(nested(MAX_JSON_DEPTH - 2));
      expect(expectStatus(await api.complete(jobId, STEPS[0]!, token, { data: { deepest } }), 200).body.steps[0].data).toEqual({ deepest });
    });

    it('the service bounds nesting itself (InvalidArgument on the field) for callers that bypass the gateway', async () => {
      const { jobId, propertyId } = await newJob(app, 'hardening');
      const token = await claimed(api, jobId);
      const client = diligenceClient(app);
      const as = await asMember(app, 'hardening', 'worker');
      const deep = bytes(nested(20_000));
      const result = { status: 'ready', provider: 'p', costUsd: '0' };
      for (const [call, loc] of [
        [client.completeStep({ jobId, step: STEPS[0]!, claimToken: token, result: { ...result, dataJson: deep } }, as), ['body', 'data']],
        [client.reconcileStep({ jobId, step: STEPS[0]!, confirmedNoRetry: true, result: { ...result, citationsJson: deep } }, as), ['body', 'citations']],
        [client.revealContact({ propertyId, contactJson: deep, provider: 'p', costUsd: '0' }, as), ['body', 'contact']],
      ] as const) {
        const error = await refusal(call);
        expect(error.code).toBe(Code.InvalidArgument);
        expect(error.fields).toMatchObject({ detail: [{ loc, type: 'json_invalid', ctx: { max_depth: MAX_JSON_DEPTH } }] });
      }
      expect(expectStatus(await api.get(jobId), 200).body.steps[0].status).toBe('pending');
    });
  });
});
