import { randomUUID } from 'node:crypto';
import { createClient } from '@connectrpc/connect';
import { sql } from 'kysely';
import { findTenant, authDb } from '@landscreen/auth-service';
import { DEFAULT_STEPS, ensurePromotionJob } from '@landscreen/diligence-service/data-access';
import { diligencev1 } from '@landscreen/proto';
import { callerHeaders, directTransport, type Caller } from '@landscreen/rpc';
import type { HttpResponse, TestStack } from '@landscreen/testing';

/** Helpers of the diligence suites: jobs made the way promotion makes them, and the internal API. */

export const STEPS = [...DEFAULT_STEPS];
export const PREFIX = '/v1/internal/diligence';

export const session = (email: string, tenant: string, role?: string) => ({
  authorization: `Bearer dev:${email}${role ? `:${role}` : ''}`,
  'x-tenant': tenant,
});

/**
 * A job as promotion writes it (D20), through the diligence package's own data-access function,
 * for a property of its own. The tenant must exist (a dev session's first request creates it).
 */
export async function newJob(app: TestStack, tenantSlug: string): Promise<{ jobId: string; propertyId: string }> {
  const db = app.stack.database.db;
  const tenant = await findTenant(authDb(db), tenantSlug);
  if (!tenant) throw new Error(`no tenant ${tenantSlug}`);
  const propertyId = randomUUID();
  const { jobId } = await db.transaction().execute((trx) =>
    ensurePromotionJob(trx, {
      tenantId: tenant.id,
      tenantSlug,
      propertyId,
      pipelineItemId: randomUUID(),
      marketId: randomUUID(),
      vintageId: randomUUID(),
      parcelKey: `parcel-${propertyId.slice(0, 8)}`,
      parcel: null,
    }),
  );
  return { jobId, propertyId };
}

/** The internal diligence API over HTTP, as one caller. */
export function diligenceApi(app: TestStack, headers: Record<string, string>) {
  const job = (jobId: string) => `${PREFIX}/jobs/${jobId}`;
  const step = (jobId: string, name: string, action: string) => `${job(jobId)}/steps/${name}/${action}`;
  return {
    list: (query: Record<string, string | number> = {}) => app.get(`${PREFIX}/jobs`, { headers, query }),
    get: (jobId: string) => app.get(job(jobId), { headers }),
    spend: (day?: string) => app.get(`${PREFIX}/spend`, { headers, query: day ? { day } : {} }),
    authorize: (jobId: string, maxCostUsd: string | number = '10', note = 'Approved for the test.') =>
      app.post(`${job(jobId)}/authorize`, { max_cost_usd: maxCostUsd, note }, { headers }),
    claim: (jobId: string, workerId = 'worker-1', leaseSeconds?: number) =>
      app.post(`${job(jobId)}/claim`, { worker_id: workerId, ...(leaseSeconds && { lease_seconds: leaseSeconds }) }, { headers }),
    start: (jobId: string, name: string, claimToken: string) => app.post(step(jobId, name, 'start'), { claim_token: claimToken }, { headers }),
    complete: (jobId: string, name: string, claimToken: string, result: Record<string, unknown> = {}) =>
      app.post(step(jobId, name, 'complete'), { status: 'ready', provider: 'acme-data', claim_token: claimToken, ...result }, { headers }),
    fail: (jobId: string, name: string, claimToken: string, retryable: boolean, code = 'provider_timeout') =>
      app.post(step(jobId, name, 'fail'), { claim_token: claimToken, code, message: 'The provider timed out.', retryable }, { headers }),
    reconcile: (jobId: string, name: string, result: Record<string, unknown> = {}) =>
      app.post(step(jobId, name, 'reconcile'), { status: 'ready', provider: 'acme-data', confirmed_no_retry: true, ...result }, { headers }),
    reveal: (propertyId: string, body: Record<string, unknown>) => app.post(`/v1/properties/${propertyId}/reveal`, body, { headers }),
  };
}

export type DiligenceApi = ReturnType<typeof diligenceApi>;

/** Authorizes and claims a job; answers the claim token. */
export async function claimed(api: DiligenceApi, jobId: string, maxCostUsd: string = '10'): Promise<string> {
  expectStatus(await api.authorize(jobId, maxCostUsd), 200);
  const claim = await api.claim(jobId);
  expectStatus(claim, 200);
  return claim.body.claim_token;
}

export function expectStatus(response: HttpResponse, status: number) {
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status} ${JSON.stringify(response.body)}`);
  return response;
}

/** The outbox subjects of one job, in the order they were written. */
export async function outboxSubjects(app: TestStack, jobId: string): Promise<string[]> {
  const { rows } = await sql<{ subject: string }>`select subject from diligence.outbox where data->>'job_id' = ${jobId} order by seq`.execute(app.stack.database.db);
  return rows.map((row) => row.subject);
}

/** Ledger rows of one job (or of a tenant's reveals), oldest first. */
export async function ledgerRows(app: TestStack, jobId: string) {
  const { rows } = await sql<{ step: string | null; provider_request_id: string | null; amount_usd: string }>`
    select step, provider_request_id, amount_usd::text as amount_usd from diligence.cost_ledger where job_id = ${jobId} order by recorded_at, id`.execute(app.stack.database.db);
  return rows;
}

/** A Connect client of the diligence service, as another service reaches it in-process. */
export function diligenceClient(app: TestStack) {
  return createClient(diligencev1.DiligenceService, directTransport(app.stack.modules, { checkMessages: true }));
}

/** Call options that act as a member of a tenant (what the gateway puts on every call). */
export async function asMember(app: TestStack, tenantSlug: string, role: Caller['role'] = 'analyst') {
  const tenant = await findTenant(authDb(app.stack.database.db), tenantSlug);
  if (!tenant) throw new Error(`no tenant ${tenantSlug}`);
  const caller: Caller = { tenantId: tenant.id, tenantSlug, tenantName: tenant.name ?? tenantSlug, identityId: '', email: '', role, kind: 'dev', sessionId: '' };
  return { headers: callerHeaders(caller) };
}
