import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Transport } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { findTenant, authDb } from '@landscreen/auth-service';
import { loadConfig, type ServiceName } from '@landscreen/config';
import { createModules } from '@landscreen/runtime';
import { ensurePromotionJob } from '@landscreen/diligence-service/data-access';
import { createMemoryBus } from '@landscreen/events';
import { createGateway, createServiceClients } from '@landscreen/gateway';
import { diligencev1 } from '@landscreen/proto';
import { createLogger, deferredTransport, networkTransport, serveServices, systemClock, type ServedServices } from '@landscreen/rpc';
import { createTestPostgres, httpClient, type TestDatabase, type TestStack } from '@landscreen/testing';
import type { FastifyInstance } from 'fastify';
import { asMember, diligenceApi, expectStatus, session, STEPS, type DiligenceApi } from '../support/diligence.js';

const WORKER = session('wes@wire.test', 'wire', 'worker');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const json = (bytes: Uint8Array | undefined) => (bytes && bytes.length > 0 ? JSON.parse(Buffer.from(bytes).toString('utf8')) : undefined);

/**
 * DiligenceService's typed answers (a job with its steps, a claim, a day's spend, a
 * reveal, a property's diligence) encoded as binary protobuf between processes — the gateway
 * reaching the service over the network prints the same REST JSON as the embedded hop, open
 * objects (provider data, citations, contacts, the parcel) included verbatim; and a plain gRPC
 * client reads the typed messages.
 */
describe('diligence over the network', () => {
  let database: TestDatabase;
  const served = new Map<ServiceName, ServedServices>();
  let gateway: FastifyInstance;
  let api: DiligenceApi;
  // The parcel as promotion stores it: a discovery ParcelCandidate (open facts with characters
  // that must survive the binary hop).
  const parcel = {
    market: 'wire-tx',
    vintage_id: randomUUID(),
    parcel_key: 'W-1',
    apn: '001-002',
    address: '1 Wire Rd',
    lat: 30.25,
    lon: -97.75,
    geometry: null,
    typed: { acres: 80.5, owner_name: 'Ann Owner' },
    free_facts: { note: 'é ✓ 𝄞' },
    derived: {},
    provenance: {},
  };

  beforeAll(async () => {
    database = await createTestPostgres();
    const config = loadConfig({}, { logLevel: 'silent', databaseUrl: database.url });
    const peers = new Map<ServiceName, Transport>();
    const peer = (name: ServiceName) =>
      deferredTransport(() => {
        if (!peers.has(name)) peers.set(name, networkTransport(`http://127.0.0.1:${served.get(name)!.port}`));
        return peers.get(name)!;
      });
    const modules = createModules({ db: database.db, bus: createMemoryBus(), clock: systemClock, config, logger: createLogger('silent'), peer });
    for (const module of modules) served.set(module.name, await serveServices([module], { host: '127.0.0.1', port: 0 }));
    const clients = createServiceClients((name) => networkTransport(`http://127.0.0.1:${served.get(name)!.port}`));
    gateway = await createGateway({ deps: { clients, build: 'test', clock: systemClock }, logger: createLogger('silent') });
    const client = httpClient(await gateway.listen({ host: '127.0.0.1', port: 0 }));
    expectStatus(await client.get('/v1/me', { headers: WORKER }), 200);
    api = diligenceApi({ ...client, stack: { database } } as unknown as TestStack, WORKER);
  });

  afterAll(async () => {
    await gateway?.close();
    for (const server of served.values()) await server.close();
    await database?.close();
  });

  /** A job as promotion writes it (D20), with the parcel it was promoted with. */
  async function promotedJob() {
    const tenant = (await findTenant(authDb(database.db), 'wire'))!;
    const propertyId = randomUUID();
    const { jobId } = await database.db.transaction().execute((trx) =>
      ensurePromotionJob(trx, { tenantId: tenant.id, tenantSlug: 'wire', propertyId, pipelineItemId: randomUUID(), marketId: randomUUID(), vintageId: randomUUID(), parcelKey: 'W-1', parcel }),
    );
    return { jobId, propertyId };
  }

  it('authorize, claim, start, complete, fail, get, list, spend and reveal print the same REST JSON', async () => {
    const { jobId, propertyId } = await promotedJob();
    const authorized = expectStatus(await api.authorize(jobId, '12.5', 'Go.'), 200).body;
    expect(authorized).toMatchObject({ id: jobId, status: 'authorized', max_cost_usd: '12.5000', cost_usd: '0.0000', note: 'Go.', claimable: true, claimed_by: null, lease_expires_at: null });
    expect(authorized.authorized_at).toMatch(TIME);
    expect(authorized.steps.map((step: any) => [step.name, step.position, step.status, step.data, step.citations, step.error])).toEqual(
      STEPS.map((name, position) => [name, position, 'pending', null, [], null]),
    );

    const claim = expectStatus(await api.claim(jobId, 'worker-w', 600), 200).body;
    expect(Object.keys(claim)).toEqual(['claim_token', 'lease_expires_at', 'job']);
    expect(claim.claim_token).toMatch(UUID);
    expect(claim.job).toMatchObject({ status: 'running', claimed_by: 'worker-w', lease_expires_at: claim.lease_expires_at, claimable: false });

    const started = expectStatus(await api.start(jobId, STEPS[0]!, claim.claim_token), 200).body;
    expect(started.steps[0]).toMatchObject({ status: 'running', attempts: 1, completed_at: null });
    expect(started.steps[0].started_at).toMatch(TIME);

    const data = { summary: 'Deed found.', n: 1.5, big: 12345678901234567890, nested: { list: [1, 'x', null, true] }, text: 'é ✓ 𝄞' };
    const citations = [{ url: 'https://records.example.com/1', title: 'Deed' }, { url: 'https://records.example.com/2' }];
    const completed = expectStatus(
      await api.complete(jobId, STEPS[0]!, claim.claim_token, { data, citations, cost_usd: '1.25', provider_request_id: 'r-1', provider_version: 'v2' }),
      200,
    ).body;
    expect(completed.steps[0]).toEqual({
      name: STEPS[0],
      position: 0,
      status: 'ready',
      attempts: 1,
      provider: 'acme-data',
      provider_version: 'v2',
      provider_request_id: 'r-1',
      data,
      citations,
      cost_usd: '1.2500',
      error: null,
      started_at: started.steps[0].started_at,
      completed_at: expect.stringMatching(TIME),
    });
    expect(completed.cost_usd).toBe('1.2500');

    const failed = expectStatus(await api.fail(jobId, STEPS[1]!, claim.claim_token, true), 200).body;
    expect(failed.status).toBe('authorized');
    expect(failed.steps[1]).toMatchObject({ status: 'pending', error: { code: 'provider_timeout', message: 'The provider timed out.' } });

    const reveal = expectStatus(await api.reveal(propertyId, { contact: { name: 'Ann Owner', phones: ['+1 555'] }, provider: 'skiptrace', provider_request_id: 'c-1', cost_usd: '0.75' }), 201).body;
    expect(reveal).toEqual({
      contact: { id: expect.stringMatching(UUID), contact: { name: 'Ann Owner', phones: ['+1 555'] }, provider: 'skiptrace', created_at: expect.stringMatching(TIME), property_id: propertyId, provider_request_id: 'c-1' },
      ledger: { id: expect.stringMatching(UUID), job_id: jobId, provider: 'skiptrace', provider_request_id: 'c-1', amount_usd: '0.7500', recorded_at: reveal.contact.created_at },
    });
    const free = expectStatus(await api.reveal(propertyId, { contact: { name: 'Free' }, provider: 'mine', cost_usd: '0' }), 201).body;
    expect(free.ledger).toBeNull();
    expect(free.contact.provider_request_id).toBeNull();

    const detail = expectStatus(await api.get(jobId), 200).body;
    expect(Object.keys(detail).slice(-3)).toEqual(['steps', 'parcel', 'contacts']);
    expect(detail.parcel).toEqual(parcel);
    expect(detail.contacts).toEqual([reveal.contact, free.contact].map(({ id, contact, provider, created_at }) => ({ id, contact, provider, created_at })));
    const { parcel: _parcel, contacts: _contacts, ...job } = detail;
    expect(job).toEqual({ ...failed, claimable: true });

    const list = expectStatus(await api.list({ status: 'authorized', limit: 5 }), 200).body;
    expect(list).toMatchObject({ total: 1, limit: 5, offset: 0 });
    expect(list.jobs).toEqual([job]);

    const spend = expectStatus(await api.spend(), 200).body;
    expect(spend).toEqual({ day: new Date().toISOString().slice(0, 10), total_usd: '2.0000', rows: 2, by_provider: { 'acme-data': '1.2500', skiptrace: '0.7500' } });
    expect(expectStatus(await api.spend('2001-01-01'), 200).body).toEqual({ day: '2001-01-01', total_usd: '0.0000', rows: 0, by_provider: {} });
  });

  it('a gRPC client reads the typed messages: ids, money as decimal strings, open objects as JSON bytes', async () => {
    const { jobId, propertyId } = await promotedJob();
    const grpc = createClient(diligencev1.DiligenceService, createGrpcTransport({ baseUrl: `http://127.0.0.1:${served.get('diligence')!.port}` }));
    const as = await asMember({ stack: { database } } as unknown as TestStack, 'wire', 'worker');
    const authorized = await grpc.authorizeJob({ jobId, maxCostUsd: '3', note: 'ok' }, as);
    expect(authorized.job).toMatchObject({ id: jobId, status: 'authorized', maxCostUsd: '3.0000', costUsd: '0.0000', claimable: true });
    const claim = await grpc.claimJob({ jobId, workerId: 'grpc-worker', leaseSeconds: 60 }, as);
    expect(claim.claimToken).toMatch(UUID);
    expect(claim.job!.steps.map((step) => step.name)).toEqual(STEPS);
    const done = await grpc.completeStep(
      { jobId, step: STEPS[0]!, claimToken: claim.claimToken, result: { status: 'partial', provider: 'p', costUsd: '0.5', dataJson: Buffer.from('{"a":[1,2]}'), citationsJson: Buffer.from('[{"url":"u"}]') } },
      as,
    );
    const step = done.job!.steps[0]!;
    expect([step.status, step.costUsd, json(step.dataJson), json(step.citationsJson), step.error]).toEqual(['partial', '0.5000', { a: [1, 2] }, [{ url: 'u' }], undefined]);
    const got = await grpc.getJob({ jobId }, as);
    expect(json(got.parcelJson)).toEqual(parcel);
    expect(got.contacts).toEqual([]);
    const spend = await grpc.getSpend({}, as);
    expect(spend.byProvider.find((row) => row.provider === 'p')?.totalUsd).toBe('0.5000');
    const page = await grpc.getPropertyDiligence({ propertyId }, as);
    expect(page.diligence).toMatchObject({ jobId, status: 'running' });
    expect(page.diligence!.steps[0]).toMatchObject({ status: 'partial', summary: expect.stringContaining('partly complete by p') });
    expect(json(page.diligence!.steps[0]!.citationsJson)).toEqual([{ url: 'u' }]);
    expect((await grpc.getPropertyDiligence({ propertyId: randomUUID() }, as)).diligence).toBeUndefined();
  });
});
