/** D22: the steps of a job, in the order a worker runs them. */
export const DEFAULT_STEPS = ['parcel_record', 'point_data', 'hosting_capacity', 'utility_findings', 'owner_contact', 'report'] as const;
export type StepName = (typeof DEFAULT_STEPS)[number];

export const JOB_STATUSES = ['queued', 'authorized', 'running', 'ready', 'partial', 'needs_review', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
