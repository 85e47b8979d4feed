import type { diligencev1 } from '@landscreen/proto';
import type { JobRow, StepRow } from '../store/jobs.js';
import { citationsBytes, isoTime } from './job-view.js';
import { stepSummary } from './step-summary.js';

/**
 * The customer-readable diligence of a property (D28): per step its status, a summary and the
 * citations; never the raw provider payload, costs, budgets, workers or error details.
 */
export function propertyDiligenceView(job: JobRow, steps: StepRow[]): diligencev1.PropertyDiligence {
  return {
    $typeName: 'landscreen.diligence.v1.PropertyDiligence',
    jobId: job.id,
    status: job.status,
    updatedAt: isoTime(job.updated_at),
    steps: steps.map((step) => ({
      $typeName: 'landscreen.diligence.v1.StepSummary',
      name: step.name,
      status: step.status,
      summary: stepSummary(step),
      // Customers see a list of citations or none, whatever a caller stored.
      citationsJson: citationsBytes(Array.isArray(step.citations) ? step.citations : null),
      completedAt: step.completed_at === null ? undefined : isoTime(step.completed_at),
    })),
  };
}
