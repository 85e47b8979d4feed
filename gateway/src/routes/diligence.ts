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
import { json } from './responses.js';
import { INTERNAL } from './roles.js';
import type { RouteDef } from './route.js';

const PREFIX = '/v1/internal/diligence';
const tag = 'diligence (internal)';

const stepAction = (action: string, summary: string, body: RouteDef['request']['body']): RouteDef => ({
  method: 'POST',
  path: `${PREFIX}/jobs/{job_id}/steps/{step}/${action}`,
  operationId: `${action}Step`,
  summary,
  tag,
  security: 'session',
  roles: INTERNAL,
  request: { headers: TenantHeaders, path: StepPath, body, bodyRequired: true },
  responses: { 200: json('The job with its steps.') },
});

export const diligenceRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: `${PREFIX}/jobs`,
    operationId: 'listDiligenceJobs',
    summary: 'List diligence jobs by status',
    tag,
    security: 'session',
    roles: INTERNAL,
    request: { headers: TenantHeaders, query: ListJobsQuery },
    responses: { 200: json('A page of jobs.') },
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
    responses: { 200: json('The job.') },
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
    responses: { 200: json('{"day","total_usd","rows","by_provider"}.') },
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
    responses: { 200: json('The authorized job.') },
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
    responses: { 200: json('{"claim_token","lease_expires_at"} and the job (D23).') },
  },
  stepAction('start', 'Start a step of a claimed job', ClaimedRequest),
  stepAction('complete', 'Record a step result and its cost in one transaction', CompleteRequest),
  stepAction('fail', 'Fail a step, retryable or not', FailRequest),
  {
    ...stepAction('reconcile', 'Persist a confirmed result after the lease expired', ReconcileRequest),
    description: 'Needs no claim token; idempotent per (job, step, provider_request_id); never retries a provider (D24).',
  },
];
