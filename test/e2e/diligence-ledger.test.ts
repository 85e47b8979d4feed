import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ManualClock } from '@landscreen/rpc';
import { DATABASE_MODES, faultSwitch, startTestStack, type TestStack } from '@landscreen/testing';
import { claimed, diligenceApi, expectStatus, ledgerRows, newJob, outboxSubjects, session, STEPS, type DiligenceApi } from '../support/diligence.js';

const ADMIN = session('ada@ledger.test', 'ledger');
const WORKER = session('wes@ledger.test', 'ledger', 'worker');
const OTHER = session('oz@elsewhere.test', 'elsewhere', 'worker');

const fault = faultSwitch();

describe.each(DATABASE_MODES)('the cost ledger on %s', (mode) => {
  let app: TestStack;
  let api: DiligenceApi;
  const clock = new ManualClock(new Date('2026-05-01T09:00:00Z'));
  const count = async (query: ReturnType<typeof sql<{ n: number }>>) => Number((await query.execute(app.stack.database.db)).rows[0]!.n);

  beforeAll(async () => {
    app = await startTestStack(mode, { clock, faults: fault.faults });
    for (const headers of [ADMIN, WORKER, OTHER]) expectStatus(await app.get('/v1/me', { headers }), 200);
    api = diligenceApi(app, WORKER);
  });
  afterAll(() => app?.close());

  it('a fault between the step result and its ledger row leaves neither (D24: one transaction)', async () => {
    const { jobId } = await newJob(app, 'ledger');
    const token = await claimed(api, jobId);
    expectStatus(await api.start(jobId, STEPS[0]!, token), 200);
    const before = await outboxSubjects(app, jobId);
    const failed = await fault.armedAt('diligence.complete.after_result', () =>
      api.complete(jobId, STEPS[0]!, token, { cost_usd: '2.5', provider_request_id: 'r-1', data: { summary: 'x' } }),
    );
    expect(failed.status).toBe(500);
    expect(failed.body).toMatchObject({ code: 'internal', detail: 'internal error' });
    const job = expectStatus(await api.get(jobId), 200).body;
    expect(job.steps[0]).toMatchObject({ status: 'running', data: null, cost_usd: '0.0000', provider: null });
    expect(job.cost_usd).toBe('0.0000');
    expect(await ledgerRows(app, jobId)).toEqual([]);
    expect(await outboxSubjects(app, jobId)).toEqual(before);
    // The same complete, without the fault, records both.
    expectStatus(await api.complete(jobId, STEPS[0]!, token, { cost_usd: '2.5', provider_request_id: 'r-1' }), 200);
    expect(await ledgerRows(app, jobId)).toEqual([{ step: STEPS[0], provider_request_id: 'r-1', amount_usd: '2.5000' }]);
  });

  it('a reconcile repeated writes one ledger row and gives the same answer (D24)', async () => {
    const { jobId } = await newJob(app, 'ledger');
    await claimed(api, jobId);
    const result = { status: 'partial', provider_request_id: 'prov-77', cost_usd: '0.1234', data: { found: 3 }, citations: [{ url: 'https://example.com/a' }] };
    const first = expectStatus(await api.reconcile(jobId, STEPS[2]!, result), 200);
    const again = await Promise.all([api.reconcile(jobId, STEPS[2]!, result), api.reconcile(jobId, STEPS[2]!, result)]);
    for (const answer of again) expect(expectStatus(answer, 200).body).toEqual(first.body);
    expect(await ledgerRows(app, jobId)).toEqual([{ step: STEPS[2], provider_request_id: 'prov-77', amount_usd: '0.1234' }]);
    expect(first.body.steps[2]).toMatchObject({ status: 'partial', cost_usd: '0.1234', data: { found: 3 } });
    expect(first.body.cost_usd).toBe('0.1234');
    // One step.completed, however many times it was reconciled.
    expect((await outboxSubjects(app, jobId)).filter((subject) => subject === 'diligence.step.completed')).toHaveLength(1);
  });

  it('reconciling a step that already has its result under another provider request records the money, keeps the result', async () => {
    const { jobId } = await newJob(app, 'ledger');
    const token = await claimed(api, jobId, '1');
    expectStatus(await api.complete(jobId, STEPS[0]!, token, { provider_request_id: 'kept', cost_usd: '0.5', data: { v: 1 } }), 200);
    const late = expectStatus(await api.reconcile(jobId, STEPS[0]!, { status: 'needs_review', provider_request_id: 'earlier-call', cost_usd: '0.75', data: { v: 2 } }), 200).body;
    expect(late.steps[0]).toMatchObject({ status: 'ready', provider_request_id: 'kept', data: { v: 1 }, cost_usd: '1.2500' });
    // The late cost takes the job over its budget of 1: needs_review (D24).
    expect(late).toMatchObject({ status: 'needs_review', cost_usd: '1.2500', claimed_by: null });
    expect((await ledgerRows(app, jobId)).map((row) => row.provider_request_id).sort()).toEqual(['earlier-call', 'kept']);
    // Without a provider request id a repeat cannot be told from a new call: nothing more is written.
    expectStatus(await api.reconcile(jobId, STEPS[0]!, { cost_usd: '9' }), 200);
    expect(await ledgerRows(app, jobId)).toHaveLength(2);
  });

  it('reconcile: confirmed_no_retry must be true; a queued job has nothing to reconcile', async () => {
    const { jobId } = await newJob(app, 'ledger');
    const refused = await app.post(`/v1/internal/diligence/jobs/${jobId}/steps/${STEPS[0]}/reconcile`, { status: 'ready', provider: 'p', confirmed_no_retry: false }, { headers: WORKER });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0]).toMatchObject({ loc: ['body', 'confirmed_no_retry'], type: 'literal_error' });
    const queued = await api.reconcile(jobId, STEPS[0]!);
    expect(queued.status).toBe(409);
    expect(queued.body.code).toBe('not_authorized');
  });

  it('spend covers every ledger row of the tenant in [day, day+1) UTC, reveals included, as decimal strings (D26)', async () => {
    const spender = diligenceApi(app, session('sam@spend.test', 'spend', 'worker'));
    await spender.list();
    const { jobId, propertyId } = await newJob(app, 'spend');
    clock.set(new Date('2026-06-01T23:59:59.999Z'));
    const token = await claimed(spender, jobId, '100');
    expectStatus(await spender.complete(jobId, STEPS[0]!, token, { provider: 'regrid', cost_usd: '1.1' }), 200);
    expectStatus(await spender.reveal(propertyId, { contact: { name: 'Jo Owner' }, provider: 'skiptrace', cost_usd: '0.2500' }), 201);
    clock.set(new Date('2026-06-02T00:00:00.000Z'));
    expectStatus(await spender.complete(jobId, STEPS[1]!, token, { provider: 'regrid', cost_usd: '3' }), 200);
    expectStatus(await spender.reconcile(jobId, STEPS[2]!, { provider: 'gridco', provider_request_id: 'g-1', cost_usd: 0.0001 }), 200);
    // Another tenant's spend on the same day is not counted.
    const elsewhere = diligenceApi(app, OTHER);
    const other = await newJob(app, 'elsewhere');
    const otherToken = await claimed(elsewhere, other.jobId);
    expectStatus(await elsewhere.complete(other.jobId, STEPS[0]!, otherToken, { provider: 'regrid', cost_usd: '50' }), 200);

    expect(expectStatus(await spender.spend('2026-06-01'), 200).body).toEqual({ day: '2026-06-01', total_usd: '1.3500', rows: 2, by_provider: { regrid: '1.1000', skiptrace: '0.2500' } });
    expect(expectStatus(await spender.spend('2026-06-02'), 200).body).toEqual({ day: '2026-06-02', total_usd: '3.0001', rows: 2, by_provider: { gridco: '0.0001', regrid: '3.0000' } });
    // Default: today by the service's clock (UTC).
    expect(expectStatus(await spender.spend(), 200).body.day).toBe('2026-06-02');
    expect(expectStatus(await spender.spend('2026-05-31'), 200).body).toEqual({ day: '2026-05-31', total_usd: '0.0000', rows: 0, by_provider: {} });
  });

  describe('reveal (D28)', () => {
    it('writes the contact and its ledger row (201), for admins and workers only', async () => {
      const { propertyId, jobId } = await newJob(app, 'ledger');
      const body = { contact: { name: 'Pat Owner', phone: '+1 512 555 0100' }, provider: 'skiptrace-co', provider_request_id: 'st-1', cost_usd: 0.25 };
      for (const role of ['analyst', 'viewer']) {
        const refused = await diligenceApi(app, session(`${role}@ledger.test`, 'ledger', role)).reveal(propertyId, body);
        expect(refused.status).toBe(403);
        expect(refused.body.code).toBe('forbidden');
      }
      expect(await ledgerRows(app, jobId)).toEqual([]);
      const revealed = expectStatus(await diligenceApi(app, ADMIN).reveal(propertyId, body), 201).body;
      expect(revealed.contact).toMatchObject({ property_id: propertyId, contact: body.contact, provider: 'skiptrace-co', provider_request_id: 'st-1' });
      expect(revealed.ledger).toMatchObject({ provider: 'skiptrace-co', provider_request_id: 'st-1', amount_usd: '0.2500', job_id: jobId });
      // The same provider request again: the first answer, no second contact or ledger row.
      expect(expectStatus(await api.reveal(propertyId, body), 201).body).toEqual(revealed);
      expect(await ledgerRows(app, jobId)).toEqual([{ step: null, provider_request_id: 'st-1', amount_usd: '0.2500' }]);
      const second = expectStatus(await api.reveal(propertyId, { contact: { email: 'pat@example.com' }, provider: 'skiptrace-co', cost_usd: '0' }), 201).body;
      expect(second.ledger).toBeNull();
      expect(await count(sql<{ n: number }>`select count(*) as n from diligence.contacts where property_id = ${propertyId}`)).toBe(2);
    });

    it('a property this tenant has not promoted is 404; a fault after the contact leaves nothing', async () => {
      const { propertyId, jobId } = await newJob(app, 'ledger');
      const body = { contact: { name: 'X' }, provider: 'p', cost_usd: '1' };
      for (const missing of ['00000000-0000-4000-8000-000000000000', 'nope']) {
        const response = await api.reveal(missing, body);
        expect(response.status).toBe(404);
        expect(response.body.code).toBe('property_not_found');
      }
      expect((await diligenceApi(app, OTHER).reveal(propertyId, body)).status).toBe(404);
      expect((await fault.armedAt('diligence.reveal.after_contact', () => api.reveal(propertyId, body))).status).toBe(500);
      expect(await count(sql<{ n: number }>`select count(*) as n from diligence.contacts where property_id = ${propertyId}`)).toBe(0);
      expect(await ledgerRows(app, jobId)).toEqual([]);
    });
  });
});
