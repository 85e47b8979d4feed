import { TenantHeaders } from '../schemas/common.js';
import {
  AuthorizeRequest,
  ClaimedRequest,
  ClaimRequest,
  CompleteRequest,
  FailRequest,
  JobPath,
  ListJobsQuery,
  ReconcileRequest,
  SpendQuery,
  StepPath,
} from '../schemas/diligence.js';
import { BODY_LIMITS } from './body-limits.js';
import { ClaimResponse, DiligenceJob, DiligenceJobDetail, DiligenceJobList, SpendResponse } from '@landscreen/api-schemas';
import { errors, json, SIGNED_IN } from './responses.js';
import { INTERNAL } from './roles.js';
import { asCaller, toJsonBytes } from './call.js';
import { claimJson } from '../views/claim.js';
import { answeredJob, jobDetailJson, jobListJson } from '../views/job.js';
import { spendJson } from '../views/spend.js';
import type { RouteContext, RouteDef, RouteHandler, RouteResult } from './route.js';

const PREFIX = '/v1/internal/diligence';
const tag = 'diligence (internal)';

/** The job routes' own error answers (D22-D25). */
const JOB_ERRORS = {
  404: 'job_not_found or step_not_found.',
  409: 'A move the job\'s state refuses (its code names it, with the job\'s `status`), invalid_claim, budget_below_cost or amount_out_of_range.',
};

/** 200 with the service's answer as its one view (gateway/src/views) writes it. */
const ok = (body: unknown): RouteResult => ({ status: 200, body });
/** The answer of a move (authorize, start, complete, fail, reconcile): the job as it is afterwards. */
const okJob = (answer: Parameters<typeof answeredJob>[0]): RouteResult => ok(answeredJob(answer));

/** Complete and reconcile carry the same provider result (D24); money stays a decimal string. */
const stepResult = (body: Record<string, any>) => ({
  status: body.status,
  provider: body.provider,
  providerVersion: body.provider_version ?? undefined,
  providerRequestId: body.provider_request_id ?? undefined,
  dataJson: body.data === undefined ? undefined : toJsonBytes(body.data),
  citationsJson: body.citations === undefined ? undefined : toJsonBytes(body.citations),
  costUsd: body.cost_usd ?? '0',
});

const stepOf = ({ request }: RouteContext) => ({ jobId: request.path.job_id, step: request.path.step });

const stepAction = (action: string, summary: string, body: RouteDef['request']['body'], handler: RouteHandler): RouteDef => ({
  method: 'POST',
  path: `${PREFIX}/jobs/{job_id}/steps/{step}/${action}`,
  operationId: `${action}Step`,
  summary,
  tag,
  security: 'session',
  roles: INTERNAL,
  request: { headers: TenantHeaders, path: StepPath, body, bodyRequired: true },
  ...(action === 'complete' || action === 'reconcile' ? { bodyLimit: BODY_LIMITS.providerResult } : {}),
  responses: { 200: json('The job with its steps.', DiligenceJob), ...errors([...SIGNED_IN, 404, 409], JOB_ERRORS) },
  handler,
});

export const diligenceRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: `${PREFIX}/jobs`,
    operationId: 'listDiligenceJobs',
    summary: 'List diligence jobs by status',
    description: 'Oldest first: `{"jobs": [job], "total", "limit", "offset"}`.',
    tag,
    security: 'session',
    roles: INTERNAL,
    request: { headers: TenantHeaders, query: ListJobsQuery },
    responses: { 200: json('A page of jobs.', DiligenceJobList), ...errors(SIGNED_IN) },
    handler: async ({ request, caller, raw, deps }) => {
      const { status, limit, offset } = request.query;
      return ok(jobListJson(await deps.clients.diligence.listJobs({ status, limit, offset }, asCaller(caller, raw.id))));
    },
  },
  {
    method: 'GET',
    path: `${PREFIX}/jobs/{job_id}`,
    operationId: 'getDiligenceJob',
    summary: 'One diligence job with its steps',
    tag,
    security: 'session',
    roles: INTERNAL,
    request: { headers: TenantHeaders, path: JobPath },
    responses: { 200: json('The job, the parcel as promoted and the property\'s contacts.', DiligenceJobDetail), ...errors([...SIGNED_IN, 404], JOB_ERRORS) },
    handler: async ({ request, caller, raw, deps }) => ok(jobDetailJson(await deps.clients.diligence.getJob({ jobId: request.path.job_id }, asCaller(caller, raw.id)))),
  },
  {
    method: 'GET',
    path: `${PREFIX}/spend`,
    operationId: 'getDiligenceSpend',
    summary: 'Recorded provider spend for one UTC day',
    description: 'Covers every cost-ledger row of the tenant in [day, day+1) UTC, whoever wrote it (D26).',
    tag,
    security: 'session',
    roles: INTERNAL,
    request: { headers: TenantHeaders, query: SpendQuery },
    responses: { 200: json('{"day","total_usd","rows","by_provider"}.', SpendResponse), ...errors(SIGNED_IN) },
    handler: async ({ request, caller, raw, deps }) => ok(spendJson(await deps.clients.diligence.getSpend({ day: request.query.day }, asCaller(caller, raw.id)))),
  },
  {
    method: 'POST',
    path: `${PREFIX}/jobs/{job_id}/authorize`,
    operationId: 'authorizeDiligenceJob',
    summary: 'Authorize a queued job within a budget',
    tag,
    security: 'session',
    roles: INTERNAL,
    request: { headers: TenantHeaders, path: JobPath, body: AuthorizeRequest, bodyRequired: true },
    responses: { 200: json('The authorized job.', DiligenceJob), ...errors([...SIGNED_IN, 404, 409], JOB_ERRORS) },
    handler: async ({ request, caller, raw, deps }) => {
      const { max_cost_usd: maxCostUsd, note } = request.body;
      return okJob(await deps.clients.diligence.authorizeJob({ jobId: request.path.job_id, maxCostUsd, note }, asCaller(caller, raw.id)));
    },
  },
  {
    method: 'POST',
    path: `${PREFIX}/jobs/{job_id}/claim`,
    operationId: 'claimDiligenceJob',
    summary: 'Claim an authorized job with a lease',
    tag,
    security: 'session',
    roles: INTERNAL,
    request: { headers: TenantHeaders, path: JobPath, body: ClaimRequest, bodyRequired: true },
    responses: { 200: json('{"claim_token","lease_expires_at","job"} (D23).', ClaimResponse), ...errors([...SIGNED_IN, 404, 409], JOB_ERRORS) },
    handler: async ({ request, caller, raw, deps }) => {
      const { worker_id: workerId, lease_seconds: leaseSeconds } = request.body;
      return ok(claimJson(await deps.clients.diligence.claimJob({ jobId: request.path.job_id, workerId, leaseSeconds }, asCaller(caller, raw.id))));
    },
  },
  stepAction('start', 'Start a step of a claimed job', ClaimedRequest, async (context) =>
    okJob(await context.deps.clients.diligence.startStep({ ...stepOf(context), claimToken: context.request.body.claim_token }, asCaller(context.caller, context.raw.id))),
  ),
  stepAction('complete', 'Record a step result and its cost in one transaction', CompleteRequest, async (context) => {
    const { body } = context.request;
    const request = { ...stepOf(context), claimToken: body.claim_token, result: stepResult(body) };
    return okJob(await context.deps.clients.diligence.completeStep(request, asCaller(context.caller, context.raw.id)));
  }),
  stepAction('fail', 'Fail a step, retryable or not', FailRequest, async (context) => {
    const { claim_token: claimToken, code, message, retryable } = context.request.body;
    const request = { ...stepOf(context), claimToken, code, message, retryable: retryable === true };
    return okJob(await context.deps.clients.diligence.failStep(request, asCaller(context.caller, context.raw.id)));
  }),
  {
    ...stepAction('reconcile', 'Persist a confirmed result after the lease expired', ReconcileRequest, async (context) => {
      const { body } = context.request;
      const request = { ...stepOf(context), result: stepResult(body), confirmedNoRetry: body.confirmed_no_retry === true };
      return okJob(await context.deps.clients.diligence.reconcileStep(request, asCaller(context.caller, context.raw.id)));
    }),
    description: 'Needs no claim token; idempotent per (job, step, provider_request_id); never retries a provider (D24).',
  },
];
