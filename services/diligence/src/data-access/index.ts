// What other services may call in-process against the "diligence" schema (D20): the promotion
// transaction's job insert and the read-backs the pipeline board and property page show.
export { ensurePromotionJob, jobsOfProperties, type PromotionJobInput, type PropertyJob } from './promotion-job.js';
export { recordEvent } from './outbox.js';
export { DEFAULT_STEPS, JOB_STATUSES, type JobStatus, type StepName } from './steps.js';
