import { diligenceSubject, type DiligenceJobEvent, type DiligenceStepEvent } from '@landscreen/events';
import { recordEvent } from '../data-access/outbox.js';
import type { DiligenceTransaction } from '../schema.js';
import type { JobRow, StepRow } from './jobs.js';

/**
 * D27 events, written to the outbox in the transaction of the change they describe. Payloads name
 * the job (and step), its tenant (id and slug, for a worker's X-Tenant) and the state reached;
 * workers read the rest through the API.
 */
export function recordJobEvent(trx: DiligenceTransaction, event: DiligenceJobEvent, job: JobRow, at: Date, extra: Record<string, unknown> = {}) {
  return recordEvent(trx, diligenceSubject('job', event), {
    job_id: job.id,
    tenant_id: job.tenant_id,
    tenant: job.tenant_slug,
    property_id: job.property_id,
    pipeline_item_id: job.pipeline_item_id,
    status: job.status,
    at: at.toISOString(),
    ...extra,
  });
}

export function recordStepEvent(trx: DiligenceTransaction, event: DiligenceStepEvent, job: JobRow, step: StepRow, at: Date, extra: Record<string, unknown> = {}) {
  return recordEvent(trx, diligenceSubject('step', event), {
    job_id: job.id,
    tenant_id: job.tenant_id,
    tenant: job.tenant_slug,
    property_id: job.property_id,
    step: step.name,
    status: step.status,
    attempts: step.attempts,
    at: at.toISOString(),
    ...extra,
  });
}
