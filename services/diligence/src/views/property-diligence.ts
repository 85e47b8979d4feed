import type { JobRow, StepRow } from '../store/jobs.js';
import { stepSummary } from './step-summary.js';

/**
 * The customer-readable diligence of a property (D28): per step its status, a summary and the
 * citations; never the raw provider payload, costs, budgets, workers or error details.
 */
export function propertyDiligenceView(job: JobRow, steps: StepRow[]) {
  return {
    job_id: job.id,
    status: job.status,
    updated_at: new Date(job.updated_at).toISOString(),
    steps: steps.map((step) => ({
      name: step.name,
      status: step.status,
      summary: stepSummary(step),
      citations: Array.isArray(step.citations) ? step.citations : [],
      completed_at: step.completed_at === null ? null : new Date(step.completed_at).toISOString(),
    })),
  };
}
