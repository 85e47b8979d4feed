import { Type } from '@sinclair/typebox';
import { JOB_STATUSES } from '@landscreen/api-schemas';
import { Closed, Decimal, Nullable, OpenObject, Str, Uuid } from './common.js';

export { JOB_STATUSES };

/** D21/D22 job statuses; an unknown one in the filter is 422 literal_error (as the board's stage filter). */
export const JobStatus = Type.Union(JOB_STATUSES.map((status) => Type.Literal(status)), { default: 'queued', description: 'Jobs in this status (D22); default queued.' });

export const ListJobsQuery = Type.Object({
  status: Type.Optional(JobStatus),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000, default: 0 })),
});

export const SpendQuery = Type.Object({
  day: Type.Optional(Type.String({ format: 'date', description: 'A UTC calendar day, YYYY-MM-DD, from 2000-01-01 to 2999-12-31; default today (UTC).' })),
});

export const JobPath = Type.Object({ job_id: Type.String() });
export const StepPath = Type.Object({ job_id: Type.String(), step: Type.String() });

export const AuthorizeRequest = Closed(
  {
    max_cost_usd: Decimal({ maxPlaces: 4, exclusiveMinimum: 0, maximum: 100, description: 'Budget in USD: above 0, at most 100.' }),
    note: Str(1, 500),
  },
  { $id: 'AuthorizeRequest' },
);

export const ClaimRequest = Closed(
  {
    worker_id: Str(1, 128),
    lease_seconds: Type.Optional(Type.Integer({ minimum: 60, maximum: 3600, default: 3600 })),
  },
  { $id: 'ClaimRequest' },
);

export const ClaimedRequest = Closed({ claim_token: Uuid() }, { $id: 'ClaimedRequest' });

const STEP_RESULT_STATUS = Type.Union([Type.Literal('ready'), Type.Literal('partial'), Type.Literal('needs_review')]);

const resultFields = {
  status: STEP_RESULT_STATUS,
  provider: Str(1, 128),
  provider_version: Type.Optional(Nullable(Str(1, 128))),
  provider_request_id: Type.Optional(Nullable(Str(undefined, 256))),
  data: Type.Optional(OpenObject()),
  citations: Type.Optional(Type.Array(OpenObject(), { maxItems: 100 })),
  cost_usd: Type.Optional(Decimal({ maxPlaces: 4, minimum: 0, description: 'USD spent on the provider call; default 0.' })),
};

export const CompleteRequest = Closed({ ...resultFields, claim_token: Uuid() }, { $id: 'CompleteRequest' });

export const FailRequest = Closed(
  {
    claim_token: Uuid(),
    code: Str(1, 128),
    message: Str(1, 2000),
    retryable: Type.Optional(Type.Boolean({ default: false })),
  },
  { $id: 'FailRequest' },
);

export const ReconcileRequest = Closed(
  { ...resultFields, confirmed_no_retry: Type.Literal(true) },
  { $id: 'ReconcileRequest' },
);
