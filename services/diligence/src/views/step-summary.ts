import type { StepRow } from '../store/jobs.js';

const MAX_SUMMARY = 1000;

const LABELS: Record<string, string> = {
  parcel_record: 'Parcel record',
  point_data: 'Point data',
  hosting_capacity: 'Hosting capacity',
  utility_findings: 'Utility findings',
  owner_contact: 'Owner contact',
  report: 'Report',
};

/**
 * The one line a customer reads about a step (D28). A provider that wrote a `summary` string into
 * its result is quoted; otherwise the line is made from the status and the provider's name. Error
 * codes and messages stay internal: they speak of providers and workers, not of the site.
 */
export function stepSummary(step: StepRow): string {
  const given = (step.data as { summary?: unknown } | null)?.summary;
  if ((step.status === 'ready' || step.status === 'partial' || step.status === 'needs_review') && typeof given === 'string' && given.trim()) {
    return given.trim().slice(0, MAX_SUMMARY);
  }
  const label = LABELS[step.name] ?? step.name.replace(/_/g, ' ');
  const by = step.provider ? ` by ${step.provider}` : '';
  switch (step.status) {
    case 'pending':
      return `${label}: not started yet.`;
    case 'running':
      return `${label}: in progress.`;
    case 'ready':
      return `${label}: complete${by}.`;
    case 'partial':
      return `${label}: partly complete${by}; some information was not available.`;
    case 'needs_review':
      return `${label}: result${by} is awaiting review.`;
    case 'failed':
      return `${label}: could not be completed.`;
  }
}
