import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transport } from '@connectrpc/connect';
import { createTenant, setMembership, authDb } from '@landscreen/auth-service';
import { SERVICE_NAMES, loadConfig, type ServiceName } from '@landscreen/config';
import { createModules } from '@landscreen/runtime';
import { createMemoryBus } from '@landscreen/events';
import { buildCatalogPage, PRICE_LIST } from '@landscreen/field-catalog';
import { createGateway, createServiceClients } from '@landscreen/gateway';
import { CALLER_HEADER, createLogger, deferredTransport, networkTransport, serveServices, systemClock, type ServedServices } from '@landscreen/rpc';
import { checkFetchResponse, createTestPostgres, entitleTenant, loadMarket, type TestDatabase } from '@landscreen/testing';
import type { FastifyInstance } from 'fastify';

/**
 * A real gRPC client (docs/grpc.md): the distributed mode (every service on its own port, as
 * test/e2e/distributed.test.ts starts it), called with `buf curl` over gRPC with the proto files
 * as the schema, as an internal service would: sign in through AuthService, then a discovery
 * query, a promotion, a diligence claim and catalog calls, asserting on the typed answers.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUF = path.join(ROOT, 'node_modules/.bin/buf');

interface CurlAnswer {
  /** The answer as protojson (camelCase names, int64 as strings, enums by name); on an error, the error. */
  body: any;
  ok: boolean;
}

/** One unary call with `buf curl` over gRPC (HTTP/2 without TLS), the schema read from proto/. */
function bufCurl(port: number, procedure: string, request: unknown, headers: Record<string, string> = {}): Promise<CurlAnswer> {
  const args = ['curl', '--schema', ROOT, '--protocol', 'grpc', '--http2-prior-knowledge', '--data', JSON.stringify(request)];
  for (const [name, value] of Object.entries(headers)) args.push('--header', `${name}: ${value}`);
  args.push(`http://127.0.0.1:${port}/${procedure}`);
  return new Promise((resolve, reject) => {
    execFile(BUF, args, { cwd: ROOT }, (error, stdout, stderr) => {
      // A gRPC error exits non-zero with the error (code, message, details) as JSON on stderr.
      if (error && !stderr.trim().startsWith('{')) return reject(new Error(`buf curl ${procedure} failed: ${stderr || error.message}`));
      resolve({ ok: !error, body: JSON.parse((error ? stderr : stdout) || '{}') });
    });
  });
}

/** The caller header an internal service sends: the AuthService caller, as packages/rpc/src/caller.ts encodes it. */
function callerHeader(caller: any, role?: string): Record<string, string> {
  const value = {
    tenantId: caller.tenant.id,
    tenantSlug: caller.tenant.slug,
    tenantName: caller.tenant.name,
    identityId: caller.identity?.id ?? '',
    email: caller.identity?.email ?? '',
    role: role ?? caller.role,
    kind: caller.kind,
    sessionId: caller.sessionId ?? '',
  };
  return { [CALLER_HEADER]: Buffer.from(JSON.stringify(value), 'utf8').toString('base64url') };
}

describe('every service over gRPC with buf curl', () => {
  let database: TestDatabase;
  let dataDir: string;
  const served = new Map<ServiceName, ServedServices>();
  let gateway: FastifyInstance;
  let gatewayUrl: string;
  const port = (name: ServiceName) => served.get(name)!.port;

  beforeAll(async () => {
    database = await createTestPostgres();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-grpc-'));
    // No SMTP server: sign-in links go to DATA_DIR/mailbox.jsonl, where the test reads them.
    const config = loadConfig({}, { logLevel: 'silent', databaseUrl: database.url, dataDir });
    const logger = createLogger('silent');
    const peers = new Map<ServiceName, Transport>();
    const peer = (name: ServiceName) =>
      deferredTransport(() => {
        if (!peers.has(name)) peers.set(name, networkTransport(`http://127.0.0.1:${port(name)}`));
        return peers.get(name)!;
      });
    const modules = createModules({ db: database.db, bus: createMemoryBus(), clock: systemClock, config, logger, peer });
    for (const module of modules) served.set(module.name, await serveServices([module], { host: '127.0.0.1', port: 0 }));
    const clients = createServiceClients((name) => networkTransport(`http://127.0.0.1:${port(name)}`));
    gateway = await createGateway({ deps: { clients, build: 'test', clock: systemClock }, logger });
    gatewayUrl = await gateway.listen({ host: '127.0.0.1', port: 0 });

    await createTenant(authDb(database.db), 'grpc', 'gRPC Land');
    await setMembership(authDb(database.db), 'grpc', 'ann@grpc.test', 'admin');
    await loadMarket(database.db, 'grpc-tx', [
      { geometry: null, properties: { parcel_key: 'g-1', acres: 80 } },
      { geometry: null, properties: { parcel_key: 'g-2', acres: 10 } },
    ]);
    await entitleTenant(database.db, 'grpc', 'grpc-tx');
  });

  afterAll(async () => {
    await gateway?.close();
    for (const server of served.values()) await server.close();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers Health on every service', async () => {
    const services: Record<ServiceName, string> = {
      auth: 'landscreen.auth.v1.AuthService',
      catalog: 'landscreen.catalog.v1.CatalogService',
      discovery: 'landscreen.discovery.v1.DiscoveryService',
      pipeline: 'landscreen.pipeline.v1.PipelineService',
      diligence: 'landscreen.diligence.v1.DiligenceService',
    } as Record<ServiceName, string>;
    expect(Object.keys(services).sort()).toEqual([...SERVICE_NAMES].sort());
    for (const name of SERVICE_NAMES) {
      const health = await bufCurl(port(name), `${services[name]}/Health`, {});
      // Discovery may still be warming the ranking indexes of the market just loaded: not ready yet, and saying why.
      expect(health.body.schema, name).toBe(name);
      expect(health.body.appliedMigrations, name).toEqual(health.body.expectedMigrations);
      expect(health.body.ready === true || typeof health.body.reason === 'string', name).toBe(true);
    }
  });

  it('signs in, queries, promotes and claims, each answer typed', async () => {
    // Sign-in (D5, D6): a link is mailed to the member; verifying it opens a session.
    const requested = await bufCurl(port('auth'), 'landscreen.auth.v1.AuthService/RequestLink', { email: 'ann@grpc.test', tenant: 'grpc', clientAddress: '10.0.0.7' });
    expect(requested).toEqual({ ok: true, body: {} });
    const token = await linkToken('ann@grpc.test');
    const verified = await bufCurl(port('auth'), 'landscreen.auth.v1.AuthService/VerifyLink', { token, clientAddress: '10.0.0.7' });
    expect(verified.body).toMatchObject({
      session: { token: expect.any(String), expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      identity: { id: expect.any(String), email: 'ann@grpc.test' },
      tenant: { id: expect.any(String), slug: 'grpc', name: 'gRPC Land' },
      role: 'admin',
    });
    // The session token authenticates: the caller every service then receives in x-landscreen-caller.
    const { body: authenticated } = await bufCurl(port('auth'), 'landscreen.auth.v1.AuthService/Authenticate', { token: verified.body.session.token, tenant: 'grpc' });
    const caller = authenticated.caller;
    expect(caller).toMatchObject({ tenant: { slug: 'grpc' }, identity: { email: 'ann@grpc.test' }, role: 'admin', kind: 'session', sessionId: expect.any(String) });
    const as = callerHeader(caller);

    // Without the caller header a service refuses the call.
    const anonymous = await bufCurl(port('discovery'), 'landscreen.discovery.v1.DiscoveryService/ListBuyBoxes', {});
    expect([anonymous.ok, anonymous.body.code]).toEqual([false, 'unauthenticated']);

    // A buy box (the draft is an open request body: JSON bytes, base64 in protojson), then a query.
    const spec = { markets: ['grpc-tx'], must: [{ field: 'acres', op: '>=', value: 50 }], preferred: [{ field: 'acres', op: '>=', value: 70, weight: 1 }], verdict_cutoffs: { pursue: 70, monitor: 40 } };
    const created = await bufCurl(port('discovery'), 'landscreen.discovery.v1.DiscoveryService/CreateBuyBox', { name: 'big', specJson: Buffer.from(JSON.stringify(spec)).toString('base64') }, as);
    expect(created.ok, JSON.stringify(created.body)).toBe(true);
    expect(created.body.buyBox).toMatchObject({ id: expect.any(String), name: 'big', specHash: expect.any(String) });
    const ranked = await bufCurl(port('discovery'), 'landscreen.discovery.v1.DiscoveryService/Query', { buyBox: 'big' }, as);
    expect(ranked.ok, JSON.stringify(ranked.body)).toBe(true);
    expect(ranked.body).toMatchObject({ market: 'grpc-tx', vintageId: expect.any(String), queryHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(ranked.body.results.map((result: any) => result.parcelKey)).toEqual(['g-1']);

    // A promotion (D19): the four rows, typed; a parcel that fails a must rule is refused with the D2 detail.
    const promoted = await bufCurl(port('pipeline'), 'landscreen.pipeline.v1.PipelineService/Promote', { parcelKey: 'g-1', buyBox: 'big', queryHash: ranked.body.queryHash }, as);
    expect(promoted.ok, JSON.stringify(promoted.body)).toBe(true);
    const promotion = promoted.body.promotion;
    expect(promotion).toMatchObject({ propertyId: expect.any(String), pipelineItemId: expect.any(String), buyBoxMatchId: expect.any(String), diligenceJobId: expect.any(String), status: 'created' });
    const refused = await bufCurl(port('pipeline'), 'landscreen.pipeline.v1.PipelineService/Promote', { parcelKey: 'g-2', buyBox: 'big', queryHash: ranked.body.queryHash }, as);
    expect([refused.ok, refused.body.code]).toEqual([false, 'failed_precondition']);
    expect(JSON.stringify(refused.body.details ?? [])).toContain('landscreen.common.v1.ErrorDetail');

    // Diligence (D23): an admin authorizes the job, a worker claims it and gets the claim token.
    const authorized = await bufCurl(port('diligence'), 'landscreen.diligence.v1.DiligenceService/AuthorizeJob', { jobId: promotion.diligenceJobId, maxCostUsd: '25.00', note: 'over gRPC' }, as);
    expect(authorized.ok, JSON.stringify(authorized.body)).toBe(true);
    const claimed = await bufCurl(
      port('diligence'),
      'landscreen.diligence.v1.DiligenceService/ClaimJob',
      { jobId: promotion.diligenceJobId, workerId: 'grpc-worker', leaseSeconds: 600 },
      callerHeader(caller, 'worker'),
    );
    expect(claimed.ok, JSON.stringify(claimed.body)).toBe(true);
    expect(claimed.body).toMatchObject({
      claimToken: expect.stringMatching(/^[0-9a-f-]{36}$/),
      leaseExpiresAt: expect.any(String),
      job: { id: promotion.diligenceJobId, status: 'running', propertyId: promotion.propertyId, claimedBy: 'grpc-worker', maxCostUsd: '25.0000' },
    });
    expect(claimed.body.job.steps.length).toBeGreaterThan(0);
  });

  it('answers the catalog typed, and the gateway writes the same REST bodies as before from it', async () => {
    const plans = await bufCurl(port('catalog'), 'landscreen.catalog.v1.CatalogService/ListPlans', {});
    expect(plans.body.plans.map((plan: any) => [plan.id, plan.priceUsdMonth, plan.rpm])).toEqual(PRICE_LIST.plans.map((plan) => [plan.id, String(plan.price_usd_month), plan.rpm]));
    expect(plans.body.credits.costs).toMatchObject({ fetchPerField: '1', geocode: '1' });
    expect(plans.body.credits.costs.resolve).toBeUndefined();

    const page = await bufCurl(port('catalog'), 'landscreen.catalog.v1.CatalogService/ListFields', { name: 'slope_degrees' });
    expect(page.body.fields).toEqual([expect.objectContaining({ name: 'slope_degrees', layer: 'terrain', billing: { creditsPerLocation: '1' } })]);
    expect(page.body.billing.meteredGroups.parcel_record.fields.length).toBeGreaterThan(0);

    // Through the gateway, over the network hop: the REST bodies character for character.
    for (const [route, expected] of [
      ['/v1/meta/plans', JSON.stringify(PRICE_LIST)],
      ['/v1/meta/fields', JSON.stringify(buildCatalogPage({}))],
      ['/v1/meta/fields?layer=hazards', JSON.stringify(buildCatalogPage({ layer: 'hazards' }))],
    ] as const) {
      const response = await fetch(`${gatewayUrl}${route}`);
      await checkFetchResponse('GET', `${gatewayUrl}${route}`, response);
      expect(await response.text(), route).toBe(expected);
    }
  });

  it('fetches a batch typed: one column of values per location', async () => {
    const { body: authenticated } = await bufCurl(port('auth'), 'landscreen.auth.v1.AuthService/Authenticate', { token: 'dev:bob@grpc.test', tenant: 'grpc-dev' });
    const as = callerHeader(authenticated.caller);
    const fields = ['elevation', 'slope_degrees'];
    const locations = [{ lat: 30.27, lon: -97.74, id: 'a' }, { lat: 0, lon: 0 }];
    const fetched = await bufCurl(port('catalog'), 'landscreen.catalog.v1.CatalogService/FetchBatch', { locations, fields }, as);
    expect(fetched.ok, JSON.stringify(fetched.body)).toBe(true);
    expect(fetched.body.fields).toEqual(fields);
    expect(fetched.body.credits).toMatchObject({ charged: '4', perLocation: '2' });
    expect(fetched.body.billing).toMatchObject({ creditsCharged: '4' });
    expect(fetched.body.results.map((result: any) => result.id ?? null)).toEqual(['a', null]);
    for (const result of fetched.body.results) {
      // No layers are loaded: every value is null, with its reason.
      expect(result.values.kinds).toEqual(['FETCH_VALUE_KIND_NULL', 'FETCH_VALUE_KIND_NULL']);
      expect(result.values.nullReasons).toHaveLength(2);
    }
  });

  /** The token of the newest sign-in link mailed to `email` (DATA_DIR/mailbox.jsonl), waiting for it. */
  async function linkToken(email: string): Promise<string> {
    for (;;) {
      let lines: string[] = [];
      try {
        lines = readFileSync(path.join(dataDir, 'mailbox.jsonl'), 'utf8').trim().split('\n');
      } catch {
        // not written yet
      }
      const mail = lines.filter(Boolean).map((line) => JSON.parse(line) as { to: string; text: string }).reverse().find((message) => message.to === email);
      const token = mail?.text.match(/[?&]token=([^\s&]+)/)?.[1];
      if (token) return decodeURIComponent(token);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
});
