import type { DiligenceJob, DiligenceJobDetail, DiligenceJobList } from '@landscreen/api-schemas';
import type { diligencev1 } from '@landscreen/proto';
import { nullIfAbsent } from '@landscreen/rpc';
import { customerContactJson } from './contact.js';
import { openJson } from './open-json.js';
import { stepJson } from './step.js';

/**
 * A diligence job as the internal API shows it (D21-D23): money as decimal strings, absent fields
 * null, its steps in run order. Never the claim token (only the claim's answer has it). A plain
 * loop, no reflection: every claim and step call answers one.
 */
export function jobJson(job: diligencev1.Job): DiligenceJob {
  const steps = new Array<DiligenceJob['steps'][number]>(job.steps.length);
  for (let index = 0; index < job.steps.length; index++) steps[index] = stepJson(job.steps[index]!);
  return {
    id: job.id,
    status: job.status as DiligenceJob['status'],
    property_id: job.propertyId,
    pipeline_item_id: job.pipelineItemId,
    market_id: job.marketId,
    vintage_id: job.vintageId,
    parcel_key: job.parcelKey,
    max_cost_usd: nullIfAbsent(job.maxCostUsd),
    cost_usd: job.costUsd,
    note: nullIfAbsent(job.note),
    authorized_at: nullIfAbsent(job.authorizedAt),
    claimed_by: nullIfAbsent(job.claimedBy),
    lease_expires_at: nullIfAbsent(job.leaseExpiresAt),
    claimable: job.claimable,
    created_at: job.createdAt,
    updated_at: job.updatedAt,
    steps,
  };
}

/** The job of an answer that always carries one (a service answering without it is a bug). */
export function answeredJob(answer: { job?: diligencev1.Job }): DiligenceJob {
  if (!answer.job) throw new Error('the diligence service answered without the job');
  return jobJson(answer.job);
}

/** GET …/jobs/{job_id}: the job, then the parcel as promoted and the property's contacts. */
export function jobDetailJson(answer: diligencev1.GetJobResponse): DiligenceJobDetail {
  return {
    ...answeredJob(answer),
    parcel: openJson(answer.parcelJson, null),
    contacts: answer.contacts.map(customerContactJson),
  };
}

/** GET …/jobs: one page of jobs, oldest first, with the total. */
export function jobListJson(answer: diligencev1.ListJobsResponse): DiligenceJobList {
  return { jobs: answer.jobs.map(jobJson), total: answer.total, limit: answer.limit, offset: answer.offset };
}
