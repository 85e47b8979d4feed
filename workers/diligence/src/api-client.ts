import type { Claim, Job, JobDetail, PropertyPage, Spend, StepFailure, StepResult } from './api-types.js';
import { outgoingTraceHeaders } from '@landscreen/telemetry';

/** A non-2xx answer of the API: its status and D2 `code` (e.g. 409 `already_claimed`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what} answered ${status}${code ? ` ${code}` : ''}`);
    this.name = 'ApiError';
  }
}

export const isApiError = (error: unknown, status?: number, code?: string): error is ApiError =>
  error instanceof ApiError && (status === undefined || error.status === status) && (code === undefined || error.code === code);

export interface ApiClientOptions {
  /** Gateway base address, e.g. http://127.0.0.1:8080. */
  baseUrl: string;
  /** D7: the legacy shared secret; with `X-Tenant` it acts as a `worker` of that tenant. */
  secret: string;
  /** Per request; a hung gateway must not hold a job forever. */
  timeoutMs?: number;
}

/**
 * The public REST API as a worker uses it — the same calls a third-party worker would make — for
 * one tenant. Nothing here reaches a database or a service directly.
 */
export class TenantApi {
  private readonly prefix = '/v1/internal/diligence';

  constructor(
    private readonly options: ApiClientOptions,
    readonly tenant: string,
  ) {}

  getJob(jobId: string): Promise<JobDetail> {
    return this.call('GET', `${this.prefix}/jobs/${encodeURIComponent(jobId)}`);
  }

  authorize(jobId: string, maxCostUsd: string, note: string): Promise<Job> {
    return this.call('POST', `${this.prefix}/jobs/${encodeURIComponent(jobId)}/authorize`, { max_cost_usd: maxCostUsd, note });
  }

  claim(jobId: string, workerId: string, leaseSeconds: number): Promise<Claim> {
    return this.call('POST', `${this.prefix}/jobs/${encodeURIComponent(jobId)}/claim`, { worker_id: workerId, lease_seconds: leaseSeconds });
  }

  startStep(jobId: string, step: string, claimToken: string): Promise<Job> {
    return this.call('POST', this.stepPath(jobId, step, 'start'), { claim_token: claimToken });
  }

  completeStep(jobId: string, step: string, claimToken: string, result: StepResult): Promise<Job> {
    return this.call('POST', this.stepPath(jobId, step, 'complete'), { ...result, claim_token: claimToken });
  }

  failStep(jobId: string, step: string, claimToken: string, failure: StepFailure): Promise<Job> {
    return this.call('POST', this.stepPath(jobId, step, 'fail'), { ...failure, claim_token: claimToken });
  }

  /** D24: a confirmed result that arrived after the lease expired; no claim, never a retry. */
  reconcileStep(jobId: string, step: string, result: StepResult): Promise<Job> {
    return this.call('POST', this.stepPath(jobId, step, 'reconcile'), { ...result, confirmed_no_retry: true });
  }

  /** D26: today's (UTC, by the service's clock) recorded spend, every ledger row included. */
  spend(): Promise<Spend> {
    return this.call('GET', `${this.prefix}/spend`);
  }

  getProperty(propertyId: string): Promise<PropertyPage> {
    return this.call('GET', `/v1/properties/${encodeURIComponent(propertyId)}`);
  }

  private stepPath(jobId: string, step: string, action: string): string {
    return `${this.prefix}/jobs/${encodeURIComponent(jobId)}/steps/${encodeURIComponent(step)}/${action}`;
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.options.baseUrl}${path}`, {
      method,
      headers: {
        // The gateway's span of this call joins the trace of the event being handled.
        ...outgoingTraceHeaders(),
        authorization: `Bearer ${this.options.secret}`,
        'x-tenant': this.tenant,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
    });
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    if (!response.ok) {
      const code = typeof (parsed as { code?: unknown })?.code === 'string' ? (parsed as { code: string }).code : '';
      throw new ApiError(response.status, code, parsed, `${method} ${path}`);
    }
    return parsed as T;
  }
}

/** One client per tenant, made on demand: events name the tenant each job belongs to. */
export function apiClient(options: ApiClientOptions): (tenant: string) => TenantApi {
  const byTenant = new Map<string, TenantApi>();
  return (tenant) => {
    let api = byTenant.get(tenant);
    if (!api) byTenant.set(tenant, (api = new TenantApi(options, tenant)));
    return api;
  };
}
