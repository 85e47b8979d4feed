import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MODES, startTestStack, type TestStack } from '@landscreen/testing';
import { asMember, claimed, diligenceApi, diligenceClient, expectStatus, newJob, session, STEPS, type DiligenceApi } from '../support/diligence.js';

const WORKER = session('wes@page.test', 'page', 'worker');
const OTHER = session('oz@otherpage.test', 'otherpage');

/**
 * D28: what the property page shows of diligence, through the RPC the pipeline service's
 * GetProperty calls: per step status, summary and citations; never provider payloads or money.
 */
const json = (bytes: Uint8Array, empty: unknown) => (bytes.length === 0 ? empty : JSON.parse(Buffer.from(bytes).toString('utf8')));

describe.each(DATABASE_MODES)('customer-readable diligence on %s', (mode) => {
  let app: TestStack;
  let api: DiligenceApi;
  const answer = async (propertyId: string, tenant = 'page') =>
    diligenceClient(app).getPropertyDiligence({ propertyId }, await asMember(app, tenant, 'viewer'));
  /** The typed answer with its JSON fields read, in the names the property page prints. */
  const propertyDiligence = async (propertyId: string, tenant = 'page') => {
    const { diligence, contacts } = await answer(propertyId, tenant);
    return {
      diligence: diligence ? {
        job_id: diligence.jobId,
        status: diligence.status,
        steps: diligence.steps.map((step) => ({ name: step.name, status: step.status, summary: step.summary, citations: json(step.citationsJson, []) })),
      } : null,
      contacts: contacts.map((contact) => ({ id: contact.id, contact: json(contact.contactJson, {}), provider: contact.provider, created_at: contact.createdAt })),
    } as any;
  };
  /** Every field a gRPC caller receives as text, bytes fields decoded: the check for leaks. */
  const everything = async (propertyId: string) =>
    JSON.stringify(await answer(propertyId), (_key, value) => (value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : value));

  beforeAll(async () => {
    app = await startTestStack(mode);
    for (const headers of [WORKER, OTHER]) expectStatus(await app.get('/v1/me', { headers }), 200);
    api = diligenceApi(app, WORKER);
  });
  afterAll(() => app?.close());

  it('per step: status, a summary (the provider\'s own, or made from status and provider) and citations; the job status', async () => {
    const { jobId, propertyId } = await newJob(app, 'page');
    const token = await claimed(api, jobId);
    const citation = { url: 'https://records.example.com/deed/42', title: 'Deed' };
    expectStatus(await api.complete(jobId, STEPS[0]!, token, { data: { summary: 'Deed and APN confirmed.', raw: { secret: 'payload' } }, citations: [citation], cost_usd: '1.5', provider_request_id: 'r1' }), 200);
    expectStatus(await api.complete(jobId, STEPS[1]!, token, { status: 'partial', provider: 'pointco', data: { fields: 12 } }), 200);
    expectStatus(await api.start(jobId, STEPS[2]!, token), 200);
    expectStatus(await api.reveal(propertyId, { contact: { name: 'Pat Owner' }, provider: 'skiptrace', provider_request_id: 'c-1', cost_usd: '0.75' }), 201);

    const body = await propertyDiligence(propertyId);
    expect(body.diligence).toMatchObject({ job_id: jobId, status: 'running' });
    expect(body.diligence.steps.map((step: any) => [step.name, step.status])).toEqual(STEPS.map((name, index) => [name, ['ready', 'partial', 'running'][index] ?? 'pending']));
    expect(body.diligence.steps[0]).toMatchObject({ summary: 'Deed and APN confirmed.', citations: [citation] });
    expect(body.diligence.steps[1].summary).toBe('Point data: partly complete by pointco; some information was not available.');
    expect(body.diligence.steps[2].summary).toBe('Hosting capacity: in progress.');
    expect(body.diligence.steps[3]).toMatchObject({ summary: 'Utility findings: not started yet.', citations: [] });
    expect(body.contacts).toEqual([{ id: expect.any(String), contact: { name: 'Pat Owner' }, provider: 'skiptrace', created_at: expect.any(String) }]);
    // Nothing internal: no payloads, costs, budgets, workers, request ids or errors.
    const text = await everything(propertyId);
    for (const secret of ['payload', 'cost', 'max_cost', 'claimed_by', 'worker', 'fields', 'attempts', 'error']) expect(text).not.toContain(secret);
    // The request ids as values: bare, "c-1" can occur inside a random uuid ("…5c-1414…").
    for (const requestId of ['"r1"', '"c-1"']) expect(text).not.toContain(requestId);
  });

  it('failed steps say so without the internal error; another tenant sees nothing', async () => {
    const { jobId, propertyId } = await newJob(app, 'page');
    const token = await claimed(api, jobId);
    expectStatus(await api.fail(jobId, STEPS[0]!, token, false, 'upstream_500_from_vendor'), 200);
    const body = await propertyDiligence(propertyId);
    expect(body.diligence.status).toBe('failed');
    expect(body.diligence.steps[0]).toMatchObject({ status: 'failed', summary: 'Parcel record: could not be completed.' });
    expect(await everything(propertyId)).not.toContain('upstream_500_from_vendor');
    expect(await propertyDiligence(propertyId, 'otherpage')).toEqual({ diligence: null, contacts: [] });
    expect(await propertyDiligence('not-a-uuid')).toEqual({ diligence: null, contacts: [] });
  });
});
